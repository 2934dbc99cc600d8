// `npm run check:bundle` (after `npm run build`; `npm run test:e2e` runs it right after its build): fails
// when a budgeted route's initial JavaScript, gzipped, is over its budget (scripts/bundle-size.ts says
// what counts). The route pages, the builder canvas, charts, the Stripe form and the docs are lazy; an
// eager import of one of them, of zod and the contracts into the entry, or of tailwind-merge, Radix or
// TanStack Query into the landing page's header and hero, shows here first. The embeddable chat widget
// (dist/widget.js, apps/web/widget) has a budget of its own: other sites' visitors download it.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { measureBundle, webDist } from './bundle-size';

/** The chat widget's script, gzipped (issue 41: at most 15 kB). */
const WIDGET_BUDGET_KB = 15;

// Another build folder may be named, e.g. `npm run check:bundle -- /tmp/web-dist`.
const dist = process.argv[2] ?? webDist;
const figures = measureBundle(dist);
let over = false;
for (const [name, route] of Object.entries(figures.routes)) {
  const ok = route.gzipKB <= route.budgetKB;
  over ||= !ok;
  console.log(
    `${ok ? 'ok  ' : 'OVER'} ${name} (${route.path}): ${route.gzipKB.toFixed(2)} kB gzipped initial JS` +
      ` (budget ${route.budgetKB} kB${route.targetKB ? `, target ${route.targetKB} kB` : ''},` +
      ` ${route.chunks.length} chunks, ${route.rawKB.toFixed(2)} kB raw)`,
  );
  if (!ok) {
    for (const chunk of route.chunks)
      console.log(`       ${chunk.gzipKB.toFixed(2).padStart(7)} kB  ${chunk.file}`);
  }
}
const widget = path.join(dist, 'widget.js');
if (existsSync(widget)) {
  const code = readFileSync(widget);
  const gzipKB = gzipSync(code).length / 1000;
  const ok = gzipKB <= WIDGET_BUDGET_KB;
  over ||= !ok;
  console.log(
    `${ok ? 'ok  ' : 'OVER'} chat widget (widget.js): ${gzipKB.toFixed(2)} kB gzipped` +
      ` (budget ${WIDGET_BUDGET_KB} kB, ${(code.length / 1000).toFixed(2)} kB raw)`,
  );
} else {
  over = true;
  console.log('MISSING chat widget (widget.js): the build did not write it (apps/web/vite.widget.config.ts)');
}
console.log('largest lazy chunks (gzipped):');
for (const chunk of figures.largestLazyChunks)
  console.log(`  ${chunk.gzipKB.toFixed(2).padStart(7)} kB  ${chunk.file}`);
if (over) {
  console.error(
    '\nInitial JavaScript (or the chat widget) over budget: make the new import lazy (see apps/web/src/app/router.tsx and' +
      ' app-routes.tsx, and the landing page in apps/web/src/features/landing/pages/landing-page.tsx).',
  );
  process.exit(1);
}
