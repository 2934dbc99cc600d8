// The web app's build (apps/web, Vite, into apps/web/dist), stamped with a fingerprint of everything
// the build reads, so that `npm start` can tell whether dist is current without building again.
//   node scripts/web-build.ts             build (`npm run build`)
//   node scripts/web-build.ts --if-stale  build only when dist is missing, incomplete or stale
// `npm start` (scripts/start.ts) does the latter in the server's own process.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Written into dist by a build that succeeded; `vite build` empties dist first, so a failed one has none. */
export const STAMP_FILE = '.crewline-build.json';
const WEB_APP = 'apps/web';
const DIST = `${WEB_APP}/dist`;
/** Read by every build: the dependency versions (the tools' included) and the shared compiler options. */
const ROOT_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
/** Never read by the build: installed packages, build output, and tests (Vitest's, not bundled). */
const skipDirectory = (name: string) => name === 'node_modules' || name === 'dist' || name === '.git';
const skipFile = (name: string) => /\.test\.[cm]?[jt]sx?$/.test(name);

type Stamp = { inputs: string; builtAt: string };
export type BuildState = { current: true; builtAt: string } | { current: false; reason: string };

function filesUnder(root: string, dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    const directory =
      entry.isDirectory() || (entry.isSymbolicLink() && statSync(path.join(root, relative)).isDirectory());
    if (directory) {
      if (!skipDirectory(entry.name)) found.push(...filesUnder(root, relative));
    } else if (!skipFile(entry.name)) {
      found.push(relative);
    }
  }
  return found;
}

function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

type PackageJson = { name?: string; dependencies?: Record<string, string> };

/** The workspace folders the web app builds from: itself and the workspace packages it imports, transitively. */
function workspaceInputs(root: string): string[] {
  const folders = new Map<string, string>();
  for (const parent of ['packages', 'apps']) {
    if (!existsSync(path.join(root, parent))) continue;
    for (const entry of readdirSync(path.join(root, parent), { withFileTypes: true })) {
      const folder = `${parent}/${entry.name}`;
      const name =
        entry.isDirectory() && readJson<PackageJson>(path.join(root, folder, 'package.json'))?.name;
      if (name) folders.set(name, folder);
    }
  }
  const seen = new Set<string>([WEB_APP]);
  for (const folder of seen) {
    const dependencies = readJson<PackageJson>(path.join(root, folder, 'package.json'))?.dependencies ?? {};
    for (const name of Object.keys(dependencies)) {
      const dependency = folders.get(name);
      if (dependency) seen.add(dependency);
    }
  }
  return [...seen];
}

/** Every file the web build reads, relative to `root`, sorted. */
export function buildInputs(root: string): string[] {
  const files = workspaceInputs(root).flatMap((folder) => filesUnder(root, folder));
  files.push(...ROOT_INPUTS.filter((file) => existsSync(path.join(root, file))));
  return files.sort();
}

/**
 * The fingerprint of the build's inputs: their paths and contents. Adding, removing, renaming or editing
 * one changes it; touching one (a checkout that rewrote it unchanged) does not.
 */
export function inputsFingerprint(root: string): string {
  const hash = createHash('sha256');
  for (const file of buildInputs(root)) {
    hash.update(`${file}\0`);
    hash.update(readFileSync(path.join(root, file)));
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Whether apps/web/dist is the build of the sources as they are now, and complete. */
export function webBuildState(root: string, fingerprint = inputsFingerprint(root)): BuildState {
  const dist = path.join(root, DIST);
  if (!existsSync(path.join(dist, 'index.html'))) return { current: false, reason: 'it is not built' };
  const stamp = readJson<Stamp>(path.join(dist, STAMP_FILE));
  if (!stamp) return { current: false, reason: 'its build has no stamp' };
  if (stamp.inputs !== fingerprint) return { current: false, reason: 'its sources changed since its build' };
  // Every file of the build is still there (dist/.vite/manifest.json names them all).
  const manifest = readJson<Record<string, { file: string; css?: string[]; assets?: string[] }>>(
    path.join(dist, '.vite', 'manifest.json'),
  );
  if (!manifest) return { current: false, reason: 'its build has no manifest' };
  for (const chunk of Object.values(manifest)) {
    for (const file of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) {
      if (!existsSync(path.join(dist, file))) return { current: false, reason: `${file} is missing` };
    }
  }
  return { current: true, builtAt: stamp.builtAt };
}

/** Builds with the web app's own build script, then stamps dist with the fingerprint taken before. */
export function buildWebApp(root: string): void {
  // Taken first: a file edited while Vite runs makes the next start build again.
  const inputs = inputsFingerprint(root);
  const build = spawnSync('npm', ['run', 'build', '--workspace', '@crewline/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.error) throw build.error;
  if (build.status !== 0) process.exit(build.status ?? 1);
  const stamp: Stamp = { inputs, builtAt: new Date().toISOString() };
  const file = path.join(root, DIST, STAMP_FILE);
  writeFileSync(`${file}.${process.pid}`, `${JSON.stringify(stamp, null, 2)}\n`);
  renameSync(`${file}.${process.pid}`, file);
}

/** `npm start`'s first step (scripts/start.ts): a build only when dist is not current. */
export function buildWebAppIfStale(root: string): void {
  const state = webBuildState(root);
  if (state.current) {
    console.log(`The web app in ${DIST} is current (built ${state.builtAt}).`);
  } else {
    console.log(`Building the web app: ${state.reason}.`);
    buildWebApp(root);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.join(import.meta.dirname, '..');
  if (process.argv.includes('--if-stale')) buildWebAppIfStale(root);
  else buildWebApp(root);
}
