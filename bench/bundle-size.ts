// The landing page's, the dashboard's and the builder's first download (docs/product-rules.md):
// builds the web app, then sums the gzipped JavaScript each route loads before it is usable, from the
// build's manifest (scripts/bundle-size.ts says what counts; `npm run check:bundle` holds the budgets).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { measureBundle } from '../scripts/bundle-size';

const root = path.join(import.meta.dirname, '..');

export async function runBundleSize() {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, encoding: 'utf8' });
  if (build.status !== 0) {
    process.stderr.write(build.stdout + build.stderr);
    throw new Error('npm run build failed');
  }
  const { routes, largestLazyChunks } = measureBundle();
  for (const [name, route] of Object.entries(routes)) {
    const budget = `budget ${route.budgetKB} kB${route.targetKB ? `, target ${route.targetKB} kB` : ''}`;
    console.log(
      `${name} (${route.path}): ${route.gzipKB} kB gzipped, ${route.chunks.length} chunks (${budget})`,
    );
  }
  return {
    unit: 'kB (1000 bytes) of JavaScript, gzip at zlib level 6',
    routes: Object.fromEntries(
      Object.entries(routes).map(([name, { path: routePath, budgetKB, targetKB, gzipKB, rawKB, chunks }]) => [
        name,
        {
          path: routePath,
          gzipKB,
          rawKB,
          budgetKB,
          targetKB,
          chunks: chunks.length,
          largest: chunks.slice(0, 5),
        },
      ]),
    ),
    largestLazyChunks,
  };
}
