import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';

export const migrationsFolder = fileURLToPath(new URL('../migrations', import.meta.url));

// Any constant works as long as nothing else in the database takes the same advisory lock.
const MIGRATION_LOCK_KEY = 724_311_906_001;

/**
 * Applies the pending migrations. Several processes (API and workers) may start at once against one
 * database; the advisory lock makes the others wait, then find nothing left to apply.
 */
export async function runMigrations(target: pg.Pool | { $client: pg.Pool }): Promise<void> {
  const pool = target instanceof pg.Pool ? target : target.$client;
  const client = await pool.connect();
  // A checked-out client has no error listener of the pool's; a server shutdown must not crash us.
  const ignore = () => {};
  client.on('error', ignore);
  let failure: Error | undefined;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate(drizzle(client), { migrationsFolder });
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    client.removeListener('error', ignore);
    // After a failure the connection is destroyed rather than pooled: that is what surely releases
    // the session's advisory lock, whatever state the failed statement left it in.
    client.release(failure);
  }
}
