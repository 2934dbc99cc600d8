import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import { CONNECT_TIMEOUT_MS, type SqlExecutor } from '@crewline/db';
import { isDatabaseUnavailable } from './database-unavailable';

const DEADLOCK_DETECTED = '40P01';

/** The queue of workflow runs; a job's data is `{ executionId }`. */
export const EXECUTION_QUEUE = 'workflow-execution';

/**
 * pg-boss: the Postgres-backed job queue (SKIP LOCKED, retries, cron) that spreads work over any
 * number of worker processes sharing one database. Its tables live in the `pgboss` schema.
 * Every role starts it: API processes send jobs, worker processes also work them.
 */
export async function startQueue(databaseUrl: string, logger: Logger) {
  // pg-boss hands these to its own pg.Pool (whose connect timeout its types do not list): bounded
  // connects, so its calls fail fast and are retried while the database is unreachable.
  const options: PgBoss.ConstructorOptions & { connectionTimeoutMillis: number } = {
    connectionString: databaseUrl,
    max: 5,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  };
  const boss = new PgBoss(options);
  // Its pool's connections dropping while the database restarts is expected; it reconnects by itself.
  boss.on('error', (error) =>
    isDatabaseUnavailable(error)
      ? logger.warn({ err: error }, 'queue: the database is unavailable')
      : logger.error({ err: error }, 'queue error'),
  );
  await boss.start();
  for (let attempt = 1; ; attempt++) {
    try {
      // A job is only a wake-up call: the execution row's lease decides who runs it (see the runner),
      // and the sweeper re-sends runs whose worker died, so pg-boss itself never retries.
      await boss.createQueue(EXECUTION_QUEUE, {
        name: EXECUTION_QUEUE,
        retryLimit: 0,
        expireInSeconds: 6 * 60 * 60,
      });
      break;
    } catch (error) {
      // Processes started together (API and workers) on a new database race to create the queue;
      // Postgres ends the lock cycle by aborting all but one, which find it made on their next try.
      if ((error as { code?: unknown }).code !== DEADLOCK_DETECTED || attempt === 5) throw error;
    }
  }
  return boss;
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
      await boss.send(EXECUTION_QUEUE, { executionId }, executor ? { db: executor } : {});
      // NOTIFY inside a transaction is delivered at commit, so a worker never wakes before the job exists.
      const notify = `select pg_notify('${JOBS_CHANNEL}', $1)`;
      if (executor) await executor.executeSql(notify, [executionId]);
      else await boss.getDb().executeSql(notify, [executionId]);
    },
  };
}
