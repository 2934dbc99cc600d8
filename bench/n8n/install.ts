// n8n installed from the npm registry into a scratch folder outside the repository, for
// bench/n8n-side-by-side.ts. The folder has its own package.json and .npmrc and npm runs with it as its
// working directory, so this repository's .npmrc (strict-allow-scripts) does not apply there.
//
// Only the npm registry is used, which takes two departures from a plain `npm install n8n`:
// - n8n-nodes-base asks for xlsx as a tarball on cdn.sheetjs.com; an override puts the registry's last
//   xlsx (0.18.5) in its place. Only the spreadsheet nodes use it, not the measured workflow.
// - Install scripts are skipped (`--ignore-scripts`), then only sqlite3's is run, built from source
//   (node-gyp, python3, make and a C++ compiler): its usual prebuilt binary comes from GitHub. It is the
//   only one n8n needs here: the others are telemetry (@scarf/scarf), notices (protobufjs, oracledb),
//   optional accelerators with a JavaScript fallback (cpu-features, ssh2, msgpackr-extract), Sentry's
//   profilers (Sentry is off without a DSN), or a file watcher for development (@parcel/watcher).
//   node-gyp needs Node's headers: npm's `nodedir` setting (or BENCH_N8N_NODEDIR) names a folder that has
//   them where nodejs.org cannot be reached. sqlite3 uses Node-API, so headers of another Node version do.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, closeSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const N8N_VERSION = '2.8.4';
const OVERRIDES = { xlsx: '0.18.5' };
/** Written last, so a folder whose install was cut short is installed again rather than reused. */
const MARKER = 'crewline-bench-install.json';

export type N8nInstall = {
  dir: string;
  version: string;
  reused: boolean;
  /** Wall time of this install (null when an earlier one was reused: see `installedAt`). */
  installSeconds: number | null;
  installedAt: string;
  diskMiB: number;
  departures: string[];
};

const round = (n: number) => Math.round(n * 100) / 100;

/** The environment for npm: npm_* variables of an enclosing `npm run` (its config, prefix) left out. */
function npmEnv(extra: NodeJS.ProcessEnv = {}) {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!key.toLowerCase().startsWith('npm_')) env[key] = value;
  // npm (and node-gyp under it) on the Node that runs the bench, which will also run n8n.
  env.PATH = [path.dirname(process.execPath), process.env.PATH].filter(Boolean).join(path.delimiter);
  return { ...env, ...extra };
}

function npm(dir: string, args: string[], logFile: string, extra?: NodeJS.ProcessEnv) {
  const fd = openSync(logFile, 'a');
  const child = spawn('npm', args, { cwd: dir, env: npmEnv(extra), stdio: ['ignore', fd, fd] });
  closeSync(fd);
  return new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0) return resolve();
      const tail = readFileSync(logFile, 'utf8').split('\n').slice(-30).join('\n');
      reject(new Error(`npm ${args.join(' ')} in ${dir} failed (${code ?? signal}):\n${tail}`));
    });
  });
}

function diskMiB(dir: string) {
  try {
    return Math.round(Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split(/\s/)[0]) / 1024);
  } catch {
    return -1;
  }
}

function readMarker(dir: string): { version?: string; installedAt?: string; installSeconds?: number } | null {
  try {
    return JSON.parse(readFileSync(path.join(dir, MARKER), 'utf8')) as Record<string, never>;
  } catch {
    return null;
  }
}

/** n8n `N8N_VERSION` in `dir`: the install found there when complete and of that version, else a new one. */
export async function ensureN8n(dir: string): Promise<N8nInstall> {
  const departures = [
    `xlsx overridden to the registry's ${OVERRIDES.xlsx} (n8n-nodes-base asks for a tarball on cdn.sheetjs.com)`,
    'install scripts skipped except sqlite3, built from source (its prebuilt binary is on GitHub)',
  ];
  const installedVersion = (() => {
    try {
      const pkg = path.join(dir, 'node_modules/n8n/package.json');
      return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
    } catch {
      return null;
    }
  })();
  const marker = readMarker(dir);
  if (marker?.version === N8N_VERSION && installedVersion === N8N_VERSION) {
    return {
      dir,
      version: N8N_VERSION,
      reused: true,
      installSeconds: null,
      installedAt: marker.installedAt ?? 'unknown',
      diskMiB: diskMiB(dir),
      departures,
    };
  }

  mkdirSync(dir, { recursive: true });
  const logFile = path.join(dir, 'install.log');
  writeFileSync(logFile, '');
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify(
      {
        name: 'crewline-bench-n8n',
        private: true,
        description: 'n8n for bench/n8n-side-by-side.ts in the Crewline repository',
        dependencies: { n8n: N8N_VERSION },
        overrides: OVERRIDES,
      },
      null,
      2,
    ) + '\n',
  );
  writeFileSync(path.join(dir, '.npmrc'), 'fund=false\naudit=false\nupdate-notifier=false\n');
  console.log(`installing n8n ${N8N_VERSION} into ${dir} (several minutes; log: ${logFile})`);
  const started = performance.now();
  await npm(dir, ['install', '--ignore-scripts', '--no-audit', '--no-fund'], logFile);
  console.log('building sqlite3 from source');
  const nodedir = process.env.BENCH_N8N_NODEDIR;
  await npm(
    dir,
    ['rebuild', 'sqlite3', '--build-from-source', '--foreground-scripts'],
    logFile,
    nodedir ? { npm_config_nodedir: nodedir } : {},
  );
  if (!existsSync(path.join(dir, 'node_modules/sqlite3/build/Release/node_sqlite3.node'))) {
    throw new Error(`sqlite3 was not built in ${dir}: see ${logFile}`);
  }
  const installSeconds = round((performance.now() - started) / 1000);
  const installedAt = new Date().toISOString();
  writeFileSync(
    path.join(dir, MARKER),
    JSON.stringify({ version: N8N_VERSION, installedAt, installSeconds }, null, 2) + '\n',
  );
  return {
    dir,
    version: N8N_VERSION,
    reused: false,
    installSeconds,
    installedAt,
    diskMiB: diskMiB(dir),
    departures,
  };
}
