import { and, eq, gt, lt, sql } from 'drizzle-orm';
import { lockForTransaction, rateLimitEvents, type Db } from '@crewline/db';
import { TooManyRequestsError } from './errors';

type Window = { count: number; oldest: Date | null };

/** Seconds until the oldest event of a full window leaves it (at least 1): the 429's Retry-After. */
export function retryAfterSeconds(oldest: Date | null, windowSeconds: number): number {
  return Math.max(
    1,
    Math.ceil(((oldest?.getTime() ?? Date.now()) + windowSeconds * 1000 - Date.now()) / 1000),
  );
}

/** The 429 for a full window: `what` happened too often, and when to try again, in minutes. */
export function tooManyRequests(
  oldest: Date | null,
  windowSeconds: number,
  what: string,
): TooManyRequestsError {
  const retryAfter = retryAfterSeconds(oldest, windowSeconds);
  const minutes = Math.ceil(retryAfter / 60);
  return new TooManyRequestsError(
    `${what} Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    retryAfter,
  );
}

// Counters live in Postgres so that every API process behind a load balancer sees the same limits.
export function createRateLimitRepository(db: Db) {
  async function window(
    q: Pick<Db, 'select'>,
    bucket: string,
    key: string,
    windowSeconds: number,
  ): Promise<Window> {
    const [row] = await q
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
  }

  return {
    window: (bucket: string, key: string, windowSeconds: number) => window(db, bucket, key, windowSeconds),

    /**
     * Records one event unless the window already holds `max` of them (then `allowed` is false and
     * nothing is written, so a flood does not grow the table). Requests for the same key take turns
     * on an advisory lock: a concurrent burst cannot all pass the count before any is recorded.
     */
    async take(
      bucket: string,
      key: string,
      max: number,
      windowSeconds: number,
    ): Promise<Window & { allowed: boolean }> {
      return db.transaction(async (tx) => {
        await lockForTransaction(tx, `${bucket}|${key}`);
        const current = await window(tx, bucket, key, windowSeconds);
        if (current.count >= max) return { ...current, allowed: false };
        await tx.insert(rateLimitEvents).values({ bucket, key });
        return { ...current, allowed: true };
      });
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
