import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeLlmServer, type FakeLlmServer } from './fake-llm-server';
import { processEnv, startServerProcess, stopServerProcess, type ServerProcess } from './server-process';
import { createTestDb } from './test-db';

export type ProcessCluster = Awaited<ReturnType<typeof startProcessCluster>>;

/**
 * For the suites that kill processes: API and worker processes of the real entry point on one test
 * database of their own, with a fake model server of the file's own. Every process gets the same
 * environment (secrets, a data folder named after `name`, and what `env` adds for the fake), and
 * `close()` kills them all and removes what they kept.
 */
export async function startProcessCluster(name: string, env: (fake: FakeLlmServer) => NodeJS.ProcessEnv) {
  const database = await createTestDb();
  let fake: FakeLlmServer;
  try {
    fake = await startFakeLlmServer();
  } catch (error) {
    await database.close();
    throw error;
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `crewline-${name}-`));
  const shared = processEnv({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    JWT_SECRET: `${name}-test-secret-that-is-long-enough-0123`,
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    ...env(fake),
  });
  const started: ServerProcess[] = [];
  return {
    database,
    fake,
    /** An API process (its `url` resolves once it listens) or a worker (`ready` once it has started). */
    start(role: 'api' | 'worker') {
      const server = startServerProcess(
        { ...shared, ROLE: role },
        role === 'worker' ? /worker started/ : undefined,
      );
      started.push(server);
      return server;
    },
    async close() {
      for (const server of started) await stopServerProcess(server, 'SIGKILL');
      await fake.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
