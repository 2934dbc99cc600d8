import { sql } from 'drizzle-orm';
import type { Db } from '@crewline/db';

type QueueDepth = { queued: number; running: number; waiting: number };

/**
 * The queue's depth for the Prometheus gauges (platform/metrics reads it at scrape time; app.ts hands
 * it over): runs free to run (pending, or running under a lapsed lease: what a worker would claim
 * next, the worker autoscaler's `crewline_runs_queued`), runs in progress and runs waiting for people
 * or a time. One statement. The first two counts read only the unfinished runs, found through the
 * queue's partial index (`workflow_executions_queue_idx`), whose predicate the literal statuses let
 * the planner prove. Waiting runs have no index of their own: their count scans the organizations'
 * run index (index-only, `status` is one of its columns), which grows with all runs ever kept.
 */
export function createQueueDepth(db: Db) {
  return async function queueDepth(): Promise<QueueDepth> {
    const { rows } = await db.execute<QueueDepth>(sql`select
      count(*) filter (where "status" = 'pending' or "lease_expires_at" < now())::int as "queued",
      count(*) filter (where "status" = 'running' and "lease_expires_at" >= now())::int as "running",
      (select count(*)::int from "workflow_executions" where "status" = 'waiting') as "waiting"
      from "workflow_executions" where "status" in ('pending', 'running')`);
    return rows[0] ?? { queued: 0, running: 0, waiting: 0 };
  };
}
