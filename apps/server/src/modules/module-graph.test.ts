import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The server's modules form a one-way graph (docs/architecture.md, Modules): what a module imports
 * from another, in any form (a service's types, a columns file), makes an edge, and following the
 * edges never leads back to where it started. The lint rule checks what may be imported; this checks
 * the direction, which no single file shows.
 */
const modulesDir = import.meta.dirname;
const moduleNames = readdirSync(modulesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.includes('.test.') ? [full] : [];
  });
}

/** Each module's imports of other modules: `from` → the modules it imports. */
function moduleEdges(): Map<string, Set<string>> {
  const edges = new Map(moduleNames.map((name) => [name, new Set<string>()]));
  for (const from of moduleNames) {
    for (const file of sourceFiles(path.join(modulesDir, from))) {
      const source = readFileSync(file, 'utf8');
      const specifiers = source.matchAll(/(?:\bfrom|\bimport\(?)\s*'(\.[^']+)'/g);
      for (const [, specifier] of specifiers) {
        const target = path.relative(modulesDir, path.resolve(path.dirname(file), specifier)).split(path.sep);
        if (target[0] !== '..' && target.length > 1 && target[0] !== from) edges.get(from)!.add(target[0]);
      }
    }
  }
  return edges;
}

/** The cycles of the graph, each as the path that leads back to its start (empty when there is none). */
function cycles(edges: Map<string, Set<string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string, trail: string[]) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') {
      found.push([...trail.slice(trail.indexOf(name)), name].join(' -> '));
      return;
    }
    state.set(name, 'visiting');
    for (const next of edges.get(name) ?? []) visit(next, [...trail, name]);
    state.set(name, 'done');
  };
  for (const name of moduleNames) visit(name, []);
  return found;
}

describe('the module graph', () => {
  it('sees the imports between modules', () => {
    // A reader that found no edge would pass the next test without checking anything.
    expect(moduleEdges().get('executions')).toContain('workflows');
  });

  it('has no cycle: no two modules import each other, directly or through others', () => {
    expect(cycles(moduleEdges())).toEqual([]);
  });
});
