import PgBoss from 'pg-boss';
import type { Logger } from 'pino';

/**
 * pg-boss: the Postgres-backed job queue (SKIP LOCKED, retries, cron) that spreads work over any
 * number of worker processes sharing one database. Its tables live in the `pgboss` schema.
 */
export async function startQueue(databaseUrl: string, logger: Logger) {
  const boss = new PgBoss({ connectionString: databaseUrl, max: 5 });
  boss.on('error', (error) => logger.error({ err: error }, 'queue error'));
  await boss.start();
  return boss;
}
export type Queue = PgBoss;
