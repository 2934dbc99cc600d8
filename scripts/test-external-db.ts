// Runs the server test suite against a Postgres that the suite did not start itself: the path a CI
// with a real database server (TEST_DATABASE_URL) takes. A second embedded cluster stands in for it.
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';
import { redactUrl, startEmbeddedPostgres } from '@crewline/db';

const dataDir = await mkdtemp(path.join(tmpdir(), 'crewline-external-db-'));
// As root the cluster runs as the "postgres" user, which must be able to enter the temp folder.
await chmod(dataDir, 0o755);

let cleanedUp: Promise<void> | undefined;
let stopServer = async () => {};
const cleanUp = () =>
  (cleanedUp ??= (async () => {
    await stopServer();
    await rm(dataDir, { recursive: true, force: true });
  })());

let vitest: ReturnType<typeof spawn> | undefined;
// Forwarded so a SIGTERM from CI reaches vitest too; the database goes down once vitest has exited.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    vitest?.kill(signal);
    if (!vitest) void cleanUp().then(() => process.exit(130));
  });
}

let exitCode = 1;
try {
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  stopServer = server.stop;
  console.log(`test:external-db: server tests against the external Postgres at ${redactUrl(server.url)}`);

  // Arguments after the script's name go to vitest (`--shard=2/2`: CI's second half of the suite).
  vitest = spawn('npx', ['vitest', 'run', '--project', 'server', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, TEST_DATABASE_URL: server.url, DATABASE_URL: server.url },
  });
  exitCode = await new Promise<number>((resolve, reject) => {
    vitest!.on('error', reject);
    vitest!.on('exit', (code, signal) => resolve(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
} catch (error) {
  console.error(error);
} finally {
  await cleanUp();
}
// Explicit: nothing left running may decide the exit code for us.
process.exit(exitCode);
