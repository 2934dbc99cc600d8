// `npm run check:bundle` (after `npm run build`; `npm run test:e2e` runs it right after its build): fails
// when a budgeted route's initial JavaScript, gzipped, is over its budget (scripts/bundle-size.ts says
// what counts). The route pages, the builder canvas, charts, the Stripe form and the docs are lazy; an
// eager import of one of them, of zod and the contracts into the entry, or of tailwind-merge, Radix or
// TanStack Query into the landing page's header and hero, shows here first.
import { measureBundle } from './bundle-size';

// Another build folder may be named, e.g. `npm run check:bundle -- /tmp/web-dist`.
const figures = measureBundle(process.argv[2]);
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
console.log('largest lazy chunks (gzipped):');
for (const chunk of figures.largestLazyChunks)
  console.log(`  ${chunk.gzipKB.toFixed(2).padStart(7)} kB  ${chunk.file}`);
if (over) {
  console.error(
    '\nInitial JavaScript over budget: make the new import lazy (see apps/web/src/app/router.tsx and' +
      ' app-routes.tsx, and the landing page in apps/web/src/features/landing/pages/landing-page.tsx).',
  );
  process.exit(1);
}
