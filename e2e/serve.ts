// Starts the real server for the browser tests on a throwaway embedded database, and removes it after.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'crewline-e2e-'));
chmodSync(dataDir, 0o755); // as root, the embedded database runs as "postgres" and must enter it

const server = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(import.meta.dirname, '../apps/server/src/main.ts')],
  {
    stdio: 'inherit',
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  },
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
