import { eq, gt, sql } from 'drizzle-orm';
import { workerHeartbeats, type Db } from '@crewline/db';

export function createSystemRepository(db: Db) {
  return {
    /** Round-trip time of a trivial query, in milliseconds. */
    async ping(): Promise<number> {
      const started = performance.now();
      await db.execute(sql`select 1`);
      return Math.round((performance.now() - started) * 10) / 10;
    },
    async liveWorkerCount(withinSeconds: number): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(workerHeartbeats)
        .where(gt(workerHeartbeats.lastSeenAt, sql`now() - make_interval(secs => ${withinSeconds})`));
      return row.count;
    },
    async beat(workerId: string, role: string): Promise<void> {
      await db
        .insert(workerHeartbeats)
        .values({ id: workerId, role })
        .onConflictDoUpdate({ target: workerHeartbeats.id, set: { lastSeenAt: sql`now()` } });
    },
    async forget(workerId: string): Promise<void> {
      await db.delete(workerHeartbeats).where(eq(workerHeartbeats.id, workerId));
    },
  };
}
export type SystemRepository = ReturnType<typeof createSystemRepository>;
