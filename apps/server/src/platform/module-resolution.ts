import { existsSync } from 'node:fs';
import { registerHooks, type ResolveFnOutput } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = 'drizzle-orm';
const IN_PACKAGE = `/node_modules/${PACKAGE}/`;

/**
 * Start-up time and memory of the server process (main.ts registers this before it loads anything
 * else). drizzle-orm ships a 178 kB package.json, with an `exports` entry for each of its files, and
 * Node 24 parses that `exports` field again each time it resolves a file of the package, if only to
 * read the package's module type: about 450 times at start-up, 250 ms and 100 MiB of garbage, which the
 * heap then keeps as resident memory. So:
 * - the package's imports between its own files ('./sql/sql.js': all ES modules, as its package.json
 *   says "type": "module", and all ending in .js) are resolved here, without that lookup;
 * - an import of the package from outside ('drizzle-orm/pg-core', in some forty of our modules) goes
 *   through Node's resolution once per specifier and import conditions, then reuses that answer for
 *   every importer that would find the same copy of the package.
 */
export function registerFastModuleResolution() {
  const resolved = new Map<string, ResolveFnOutput>();
  registerHooks({
    resolve(specifier, context, nextResolve) {
      const parent = context.parentURL;
      if (!parent?.startsWith('file:')) return nextResolve(specifier, context);

      if (
        parent.endsWith('.js') &&
        parent.includes(IN_PACKAGE) &&
        (specifier.startsWith('./') || specifier.startsWith('../')) &&
        specifier.endsWith('.js')
      ) {
        const url = new URL(specifier, parent).href;
        const root = parent.slice(0, parent.indexOf(IN_PACKAGE) + IN_PACKAGE.length);
        // Never out of the package: anything else is left to Node.
        if (url.startsWith(root)) return { url, format: 'module', shortCircuit: true };
      }

      if (specifier === PACKAGE || specifier.startsWith(`${PACKAGE}/`)) {
        const key = `${specifier}\0${context.conditions.join(',')}`;
        const known = resolved.get(key);
        if (known && nearestPackageRoot(parent, known.url)) return { ...known, shortCircuit: true };
        const answer = nextResolve(specifier, context);
        if (answer.url.includes(IN_PACKAGE)) resolved.set(key, answer);
        return answer;
      }
      return nextResolve(specifier, context);
    },
  });
}

/**
 * Whether Node, looking for the package from `parentUrl` (node_modules folders from the importer's
 * folder up), finds the copy `resolvedUrl` is in: that copy's node_modules folder is one of those
 * folders, and none nearer holds the package.
 */
export function nearestPackageRoot(parentUrl: string, resolvedUrl: string): boolean {
  const nodeModules = resolvedUrl.slice(0, resolvedUrl.indexOf(IN_PACKAGE) + '/node_modules'.length);
  const base = fileURLToPath(new URL('..', `${nodeModules}/`));
  let folder = path.dirname(fileURLToPath(parentUrl));
  if (!`${folder}${path.sep}`.startsWith(base)) return false;
  for (; `${folder}${path.sep}` !== base; folder = path.dirname(folder)) {
    if (path.basename(folder) !== 'node_modules' && existsSync(path.join(folder, 'node_modules', PACKAGE))) {
      return false;
    }
  }
  return true;
}
