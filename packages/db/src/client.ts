import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { withCommitScope } from './after-commit';
import { PreparingClient } from './prepared-statements';
import * as schema from './schema';

/**
 * How long opening a connection may take. node-postgres waits forever by default, so with the
 * database unreachable (packets dropped rather than refused) requests would hang instead of failing.
 */
export const CONNECT_TIMEOUT_MS = 5000;

export interface CreateDbOptions {
  /** Pool size; pg's default is 10. */
  max?: number;
  /** Defaults to CONNECT_TIMEOUT_MS; also bounds the wait for a free pooled connection. */
  connectionTimeoutMillis?: number;
  /** Errors of idle pooled connections (server restart, admin shutdown). The pool has already dropped
   * the broken connection and the next query reconnects, so the default only ignores them. */
  onIdleError?: (error: Error) => void;
}

export function createDb(url: string, options: CreateDbOptions = {}) {
  const pool = new pg.Pool({
    Client: PreparingClient,
    connectionString: url,
    max: options.max,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? CONNECT_TIMEOUT_MS,
  });
  // Without a listener, an idle connection killed by the server (57P01 on shutdown) crashes the process.
  pool.on('error', options.onIdleError ?? (() => {}));
  const db = drizzle(pool, { schema });
  // What a transaction's statements leave for after its commit (their notifications) waits for it.
  const transaction = db.transaction.bind(db);
  db.transaction = ((work, config) => withCommitScope(() => transaction(work, config))) as typeof transaction;
  return { db, pool, close: () => pool.end() };
}

export type Db = ReturnType<typeof createDb>['db'];

/** Raw SQL on the connection of one of our transactions (a retry's reused steps, a schedule's claim of its tick). */
export type SqlExecutor = { executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };
export type Tx = NodePgDatabase<typeof schema>;

/**
 * Takes the transaction-scoped advisory lock named `key` (hashed to Postgres's 64-bit lock space):
 * whatever else takes the same key in its transaction waits until this one ends.
 */
export async function lockForTransaction(tx: Pick<Tx, 'execute'>, key: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
}

/**
 * One transaction on one pooled connection, offered both as drizzle and as a raw executor, so rows
 * written through either commit or roll back together.
 */
export async function transactionWithExecutor<T>(
  db: Db,
  work: (tx: Tx, executor: SqlExecutor) => Promise<T>,
): Promise<T> {
  return withCommitScope(() => executorTransaction(db, work));
}

async function executorTransaction<T>(
  db: Db,
  work: (tx: Tx, executor: SqlExecutor) => Promise<T>,
): Promise<T> {
  const client = await db.$client.connect();
  try {
    await client.query('BEGIN');
    const result = await work(drizzle(client, { schema }), {
      executeSql: (text, values) => client.query(text, values),
    });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
