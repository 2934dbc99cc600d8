import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema';

export interface CreateDbOptions {
  /** Pool size; pg's default is 10. */
  max?: number;
  /** Errors of idle pooled connections (server restart, admin shutdown). The pool has already dropped
   * the broken connection and the next query reconnects, so the default only ignores them. */
  onIdleError?: (error: Error) => void;
}

export function createDb(url: string, options: CreateDbOptions = {}) {
  const pool = new pg.Pool({ connectionString: url, max: options.max });
  // Without a listener, an idle connection killed by the server (57P01 on shutdown) crashes the process.
  pool.on('error', options.onIdleError ?? (() => {}));
  const db = drizzle(pool, { schema });
  return { db, pool, close: () => pool.end() };
}

export type Db = ReturnType<typeof createDb>['db'];
