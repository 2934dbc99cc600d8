import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createMigratedDatabase, dropDatabase, startEmbeddedPostgres } from '@crewline/db';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A URL of the test server with the rights to create and drop databases. */
    databaseUrl: string;
    /** The migrated database every test file clones (see test-db.ts). */
    templateDatabase: string;
  }
}

/**
 * One Postgres for the whole run: TEST_DATABASE_URL when set, otherwise an embedded one in a temp
 * folder. Migrations run once, into a template database that each test file clones.
 */
export default async function setup(project: TestProject) {
  let adminUrl = process.env.TEST_DATABASE_URL;
  let stopEmbedded = async () => {};
  if (!adminUrl) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'crewline-test-db-'));
    // mkdtemp makes it 0700; as root, Postgres runs as the "postgres" user and must enter it.
    await chmod(dataDir, 0o755);
    try {
      const embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
      adminUrl = embedded.url;
      // Ctrl-C ends vitest without running the teardown; Postgres gets the same SIGINT and stops.
      const removeOnExit = () => {
        try {
          rmSync(dataDir, { recursive: true, force: true, maxRetries: 3 });
        } catch {
          // A leftover temp folder is not worth failing the exit over.
        }
      };
      process.once('exit', removeOnExit);
      stopEmbedded = async () => {
        process.removeListener('exit', removeOnExit);
        await embedded.stop();
        await rm(dataDir, { recursive: true, force: true });
      };
    } catch (error) {
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
  }

  // Unique per run, so runs sharing one external server do not drop each other's template.
  const template = `crewline_template_${process.pid}_${randomBytes(3).toString('hex')}`;
  try {
    await createMigratedDatabase(adminUrl, template);
  } catch (error) {
    await stopEmbedded();
    throw error;
  }
  project.provide('databaseUrl', adminUrl);
  project.provide('templateDatabase', template);

  return async () => {
    try {
      await dropDatabase(adminUrl, template);
    } finally {
      await stopEmbedded();
    }
  };
}
