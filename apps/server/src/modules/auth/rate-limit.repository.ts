import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { rateLimitEvents, type Db } from '@crewline/db';

// Counters live in Postgres so that every API process behind a load balancer sees the same limits.
export function createRateLimitRepository(db: Db) {
  return {
    async window(bucket: string, key: string, windowSeconds: number) {
      const [row] = await db
        .select({
          count: sql<number>`count(*)::int`,
          oldest: sql<Date | null>`min(${rateLimitEvents.createdAt})`,
        })
        .from(rateLimitEvents)
        .where(
          and(
            eq(rateLimitEvents.bucket, bucket),
            eq(rateLimitEvents.key, key),
            gt(rateLimitEvents.createdAt, sql`now() - make_interval(secs => ${windowSeconds})`),
          ),
        );
      return { count: row.count, oldest: row.oldest ? new Date(row.oldest) : null };
    },
    async record(bucket: string, key: string): Promise<void> {
      await db.insert(rateLimitEvents).values({ bucket, key });
    },
    async clear(bucket: string, key: string): Promise<void> {
      await db
        .delete(rateLimitEvents)
        .where(and(eq(rateLimitEvents.bucket, bucket), eq(rateLimitEvents.key, key)));
    },
    async prune(olderThanSeconds: number): Promise<void> {
      await db
        .delete(rateLimitEvents)
        .where(lt(rateLimitEvents.createdAt, sql`now() - make_interval(secs => ${olderThanSeconds})`));
    },
  };
}
export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
