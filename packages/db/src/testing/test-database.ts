// The db package's own tests run in the server test project, whose global setup
// (apps/server/src/testing/global-setup.ts) provides these values; a package cannot import the app.
import { inject } from 'vitest';
import { createDb } from '../client';
import { createDatabaseFromTemplate } from '../database-admin';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    templateDatabase: string;
  }
}

export async function createTestDatabase() {
  const database = await createDatabaseFromTemplate(inject('databaseUrl'), inject('templateDatabase'));
  const { db, pool, close } = createDb(database.url);
  return {
    url: database.url,
    db,
    pool,
    async close() {
      await close();
      await database.drop();
    },
  };
}
