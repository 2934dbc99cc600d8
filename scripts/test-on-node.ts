// Runs the unit and integration suite on another Node release than the pinned one, e.g. the lowest
// one `engines` allows: `npm run test:node -- 22.22.3`. The Node binary comes from the npm registry
// (the node-<platform>-<arch> package the pinned `node` devDependency installs too), into a cache
// folder outside the project, so nothing in node_modules changes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { constants, tmpdir } from 'node:os';
import path from 'node:path';

const version = process.argv[2];
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
  console.error('usage: npm run test:node -- <version>, e.g. npm run test:node -- 22.22.3');
  process.exit(2);
}

const binaryPackage = `node-${process.platform}-${process.arch}`;
const prefix = path.join(tmpdir(), `crewline-node-${version}`);
const nodeBin = path.join(prefix, 'node_modules', binaryPackage, 'bin', 'node');
if (!existsSync(nodeBin)) {
  mkdirSync(prefix, { recursive: true });
  const install = spawnSync(
    'npm',
    ['install', '--prefix', prefix, '--no-save', '--no-package-lock', `${binaryPackage}@${version}`],
    { stdio: 'inherit' },
  );
  if (install.status !== 0) process.exit(install.status ?? 1);
}

const root = path.join(import.meta.dirname, '..');
// First on PATH too, so every `node` a test starts by name is this one (process.execPath already is).
const env = { ...process.env, PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH ?? ''}` };
const vitest = spawn(nodeBin, [path.join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], {
  cwd: root,
  env,
  stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => vitest.kill(signal));
vitest.on('exit', (code, signal) => {
  console.log(`test:node: the suite ran on Node ${version}`);
  process.exit(code ?? 128 + (signal ? constants.signals[signal] : 0));
});
