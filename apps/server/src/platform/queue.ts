import { sql, type Column, type SQL } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import type { Logger } from 'pino';
import { CONNECT_TIMEOUT_MS, type SqlExecutor } from '@crewline/db';
import { isDatabaseUnavailable } from './database-unavailable';

/** The queue of workflow runs; a job's data is `{ executionId }`. */
export const EXECUTION_QUEUE = 'workflow-execution';
export type ExecutionJobData = { executionId: string };

/**
 * pg-boss: the Postgres-backed job queue (SKIP LOCKED, retries, cron) that spreads work over any
 * number of worker processes sharing one database. Its tables live in the `pgboss` schema, which
 * `start()` installs or migrates. Every role starts it: API processes send jobs, worker processes
 * also work them.
 */
export async function startQueue(databaseUrl: string, logger: Logger) {
  const queue = createQueue(databaseUrl, logger);
  await queue.start();
  return queue.boss;
}

/**
 * The queue, made but not started: jobs can be sent through it once `start()` has resolved. main.ts
 * makes the services with it and builds the HTTP app while the queue starts.
 */
export function createQueue(databaseUrl: string, logger: Logger) {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    max: 5,
    // Bounded connects, so its calls fail fast and are retried while the database is unreachable.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // Its pool's connections dropping while the database restarts is expected; it reconnects by itself.
  boss.on('error', (error) =>
    isDatabaseUnavailable(error)
      ? logger.warn({ err: error }, 'queue: the database is unavailable')
      : logger.error({ err: error }, 'queue error'),
  );
  // What its maintenance finds worth an operator's look: slow queries, a backlog, clock skew, bloat.
  boss.on('warning', ({ message, data }) => logger.warn({ data }, `queue: ${message}`));
  return {
    boss,
    async start() {
      await boss.start();
      // A job is only a wake-up call: the execution row's lease decides who runs it (see the runner),
      // and the sweeper re-sends runs whose worker died, so pg-boss itself never retries. Creating a
      // queue that exists is a no-op, serialized by pg-boss, so every process starting at once may ask.
      await boss.createQueue(EXECUTION_QUEUE, { retryLimit: 0, expireInSeconds: 6 * 60 * 60 });
    },
  };
}
export type Queue = PgBoss;

/** The NOTIFY channel that wakes idle workers the moment a job is committed (no poll wait). */
export const JOBS_CHANNEL = 'crewline_jobs';

/** Sends run jobs; `executor` puts the job (and its wake-up) in the caller's transaction. */
export type ExecutionQueue = {
  enqueue(executionId: string, executor?: SqlExecutor): Promise<void>;
};

export function executionQueue(boss: PgBoss): ExecutionQueue {
  return {
    async enqueue(executionId, executor) {
      const data: ExecutionJobData = { executionId };
      await boss.send(EXECUTION_QUEUE, data, { db: executor });
      // NOTIFY inside a transaction is delivered at commit, so a worker never wakes before the job exists.
      const db = executor ?? boss.getDb();
      await db.executeSql(`select pg_notify('${JOBS_CHANNEL}', $1)`, [executionId]);
    },
  };
}

/**
 * A SQL condition, true while `queue` holds a live job for the run whose id is `executionId` (a
 * column or value): one waiting to be fetched, or one a worker fetched less than `liveMs` ago. The
 * sweeper re-sends runs that have none. The only place outside pg-boss that reads its tables: `job`
 * in the `pgboss` schema, partitioned by queue name, is the parent of them all.
 */
export function hasLiveJob(queue: string, executionId: Column | SQL, liveMs: number): SQL {
  return sql`exists (select 1 from pgboss.job j where j.name = ${queue}
    and j.data->>'executionId' = ${executionId}::text
    and (j.state in ('created', 'retry')
      or (j.state = 'active' and j.started_on > now() - make_interval(secs => ${liveMs / 1000}))))`;
}
