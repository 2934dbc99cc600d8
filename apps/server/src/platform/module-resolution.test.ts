import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { nearestPackageRoot } from './module-resolution';

const repoNodeModules = path.join(import.meta.dirname, '../../../../node_modules');
const temp = mkdtempSync(path.join(os.tmpdir(), 'crewline-module-resolution-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/** The drizzle-orm files a process loads for the server's imports of it, each with its module format. */
function loadedDrizzleFiles(withShortcut: boolean): string[] {
  const dir = mkdtempSync(path.join(temp, 'process-'));
  symlinkSync(repoNodeModules, path.join(dir, 'node_modules'));
  const hooks = pathToFileURL(path.join(import.meta.dirname, 'module-resolution.ts')).href;
  const script = path.join(dir, 'load.mjs');
  writeFileSync(
    script,
    `import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ load(url, context, next) { const r = next(url, context); loaded.push(url + ' ' + r.format); return r; } });
${withShortcut ? `(await import(${JSON.stringify(hooks)})).registerFastModuleResolution();` : ''}
await import('drizzle-orm');
await import('drizzle-orm/pg-core');
await import('drizzle-orm/node-postgres');
await import('drizzle-orm/node-postgres/migrator');
console.log(JSON.stringify(loaded.filter((entry) => entry.includes('/drizzle-orm/')).sort()));
`,
  );
  const output = execFileSync(process.execPath, ['--import', 'tsx', script], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(output) as string[];
}

describe('the module resolution shortcut for drizzle-orm (main.ts)', () => {
  it('loads exactly the files, in the formats, that Node’s own resolution does', { timeout: 30_000 }, () => {
    const node = loadedDrizzleFiles(false);
    expect(node.length).toBeGreaterThan(100);
    expect(loadedDrizzleFiles(true)).toEqual(node);
  });

  it('reuses a resolution only for importers that would find the same copy of the package', () => {
    const root = path.join(temp, 'tree');
    mkdirSync(path.join(root, 'node_modules/drizzle-orm'), { recursive: true });
    mkdirSync(path.join(root, 'app/nested/node_modules/drizzle-orm'), { recursive: true });
    mkdirSync(path.join(root, 'node_modules/other/dist'), { recursive: true });
    const copy = pathToFileURL(path.join(root, 'node_modules/drizzle-orm/index.js')).href;
    const importer = (file: string) => pathToFileURL(path.join(root, file)).href;

    expect(nearestPackageRoot(importer('app/src/a.ts'), copy)).toBe(true);
    expect(nearestPackageRoot(importer('a.ts'), copy)).toBe(true);
    expect(nearestPackageRoot(importer('node_modules/other/dist/index.js'), copy)).toBe(true);
    // A nearer copy wins for the files under it; a folder outside the copy's reach never finds it.
    expect(nearestPackageRoot(importer('app/nested/src/b.ts'), copy)).toBe(false);
    expect(nearestPackageRoot(pathToFileURL(path.join(temp, 'elsewhere/c.ts')).href, copy)).toBe(false);
  });
});
