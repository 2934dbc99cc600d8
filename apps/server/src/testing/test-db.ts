import { createDatabaseFromTemplate, createDb } from '@crewline/db';
import { inject } from 'vitest';
// Brings in the ProvidedContext keys that inject() reads.
import type {} from './global-setup';

/**
 * A fresh, migrated database of its own for one test file: call it in beforeAll and `close()` in
 * afterAll (which also drops the database).
 */
export async function createTestDb() {
  const database = await createDatabaseFromTemplate(inject('databaseUrl'), inject('templateDatabase'));
  const { db, pool, close: closePool } = createDb(database.url);
  return {
    url: database.url,
    db,
    pool,
    async close() {
      await closePool();
      await database.drop();
    },
  };
}

export type TestDb = Awaited<ReturnType<typeof createTestDb>>;
