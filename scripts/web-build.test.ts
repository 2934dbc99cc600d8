import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildInputs, inputsFingerprint, STAMP_FILE, webBuildState } from './web-build';

// A repository in miniature: the web app, the workspace packages it imports (contracts through
// engine), one it does not (db), the root's lockfile, and a build of it in apps/web/dist.
let root: string;
const write = (file: string, content: string) => {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), content);
};
const remove = (file: string) => rmSync(path.join(root, file), { recursive: true, force: true });
const packageJson = (name: string, dependencies: Record<string, string> = {}) =>
  JSON.stringify({ name, dependencies });

/** What a successful build leaves: the files its manifest names, and the stamp of the sources it read. */
function build() {
  write('apps/web/dist/index.html', '<!doctype html>');
  write('apps/web/dist/assets/index-abc.js', 'console.log(1)');
  write('apps/web/dist/assets/index-abc.css', 'body{}');
  write(
    'apps/web/dist/.vite/manifest.json',
    JSON.stringify({ 'index.html': { file: 'assets/index-abc.js', css: ['assets/index-abc.css'] } }),
  );
  write(
    `apps/web/dist/${STAMP_FILE}`,
    JSON.stringify({ inputs: inputsFingerprint(root), builtAt: '2026-01-01T00:00:00.000Z' }),
  );
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'crewline-web-build-'));
  write('package.json', packageJson('crewline'));
  write('package-lock.json', '{"lockfileVersion":3}');
  write('tsconfig.base.json', '{}');
  write('apps/web/package.json', packageJson('@crewline/web', { '@crewline/engine': '0.1.0', react: '^19' }));
  write('apps/web/index.html', '<div id="root"></div>');
  write('apps/web/vite.config.ts', 'export default {}');
  write('apps/web/src/main.tsx', 'render()');
  write('apps/web/src/lib/format.ts', 'export const f = 1');
  write('apps/web/src/lib/format.test.ts', 'test()');
  write('apps/web/node_modules/.vite-temp/cache.js', 'cached');
  write('packages/engine/package.json', packageJson('@crewline/engine', { '@crewline/contracts': '0.1.0' }));
  write('packages/engine/src/index.ts', 'export const engine = 1');
  write('packages/contracts/package.json', packageJson('@crewline/contracts'));
  write('packages/contracts/src/index.ts', 'export const contracts = 1');
  write('packages/db/package.json', packageJson('@crewline/db', { '@crewline/contracts': '0.1.0' }));
  write('packages/db/src/index.ts', 'export const db = 1');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('is the web build current (npm start builds only when not)', () => {
  it('reads the web app, the workspace packages it imports and the root lockfile and config', () => {
    expect(buildInputs(root)).toEqual([
      'apps/web/index.html',
      'apps/web/package.json',
      'apps/web/src/lib/format.ts',
      'apps/web/src/main.tsx',
      'apps/web/vite.config.ts',
      'package-lock.json',
      'package.json',
      'packages/contracts/package.json',
      'packages/contracts/src/index.ts',
      'packages/engine/package.json',
      'packages/engine/src/index.ts',
      'tsconfig.base.json',
    ]);
  });

  it('is not current before the first build, nor after a build that left no stamp', () => {
    expect(webBuildState(root)).toEqual({ current: false, reason: 'it is not built' });
    build();
    remove(`apps/web/dist/${STAMP_FILE}`);
    expect(webBuildState(root)).toEqual({ current: false, reason: 'its build has no stamp' });
  });

  it('is current after a build, while nothing it read changed', () => {
    build();
    expect(webBuildState(root)).toEqual({ current: true, builtAt: '2026-01-01T00:00:00.000Z' });
    // Touched but unchanged (a checkout), tests, installed packages and the output itself do not count.
    const later = new Date(Date.now() + 60_000);
    utimesSync(path.join(root, 'apps/web/src/main.tsx'), later, later);
    write('apps/web/src/lib/format.test.ts', 'test(2)');
    write('apps/web/src/lib/other.test.tsx', 'test(3)');
    write('apps/web/node_modules/.vite-temp/cache.js', 'cached again');
    write('apps/web/dist/extra.txt', 'x');
    // A workspace package the web app does not import.
    write('packages/db/src/index.ts', 'export const db = 2');
    expect(webBuildState(root).current).toBe(true);
  });

  it.each([
    ['a source edited', () => write('apps/web/src/main.tsx', 'render(2)')],
    ['a source added', () => write('apps/web/src/lib/new.ts', 'export {}')],
    ['a source removed', () => remove('apps/web/src/lib/format.ts')],
    [
      'a source renamed',
      () => {
        remove('apps/web/src/lib/format.ts');
        write('apps/web/src/lib/formatting.ts', 'export const f = 1');
      },
    ],
    ['the Vite config', () => write('apps/web/vite.config.ts', 'export default { base: "/" }')],
    ['a public file', () => write('apps/web/public/favicon.svg', '<svg/>')],
    [
      'a workspace package it imports',
      () => write('packages/engine/src/index.ts', 'export const engine = 2'),
    ],
    ['a package that one imports', () => write('packages/contracts/src/index.ts', 'export const c = 2')],
    ['the lockfile (dependency versions)', () => write('package-lock.json', '{"lockfileVersion":3,"x":1}')],
    ['the shared compiler options', () => write('tsconfig.base.json', '{"compilerOptions":{}}')],
  ])('is stale after %s', (_what, change) => {
    build();
    change();
    expect(webBuildState(root)).toEqual({ current: false, reason: 'its sources changed since its build' });
  });

  it('is not current when a file of the build is missing from dist', () => {
    build();
    remove('apps/web/dist/assets/index-abc.css');
    expect(webBuildState(root)).toEqual({ current: false, reason: 'assets/index-abc.css is missing' });
    remove('apps/web/dist/index.html');
    expect(webBuildState(root)).toEqual({ current: false, reason: 'it is not built' });
  });
});
