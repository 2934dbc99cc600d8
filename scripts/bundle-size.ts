// What a first visit downloads before a page is usable, read from the web build's manifest
// (apps/web/dist/.vite/manifest.json, `build.manifest` in apps/web/vite.config.ts): the entry chunk
// with every chunk it imports statically (index.html modulepreloads them all), then the route's lazy
// page chunks, which the router fetches as soon as the route renders, with their static imports.
// Chunks only imported dynamically (the builder's canvas, charts, the Stripe form, the toasts, the
// realtime connection, …) load later and are not counted. Sizes are gzip (zlib's default level, as
// Vite's build report) in kB of 1000 bytes.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const webDist = path.join(import.meta.dirname, '../apps/web/dist');

/**
 * The routes with a budget: their lazy page modules (as the router imports them) and the most initial
 * JS they may load. `targetKB`, when set, is an aim below the budget. The landing page's first screen
 * is React, React DOM and React Router (~99 kB together), then the entry, the shared "ui-core" chunk
 * and the page with its icons (~14 kB): its sections below the hero, TanStack Query and tailwind-merge
 * come after it (apps/web/vite.config.ts). Every other screen loads app-routes.tsx first (the
 * providers, the session and the route table), then its page.
 */
export const bundleRoutes: Record<
  'landing' | 'dashboard' | 'builder',
  { path: string; pages: readonly string[]; budgetKB: number; targetKB?: number }
> = {
  landing: {
    path: '/',
    pages: ['src/features/landing/pages/landing-page.tsx'],
    budgetKB: 120,
  },
  dashboard: {
    path: '/dashboard',
    pages: ['src/app/app-routes.tsx', 'src/app/shell.tsx', 'src/features/dashboard/pages/dashboard-page.tsx'],
    budgetKB: 200,
  },
  // A saved workflow opened in the builder: its canvas and toolbar; panels and dialogs load on first use.
  builder: {
    path: '/workflows/edit/:id',
    pages: [
      'src/app/app-routes.tsx',
      'src/app/shell.tsx',
      'src/features/workflows/pages/workflow-builder-page.tsx',
    ],
    budgetKB: 350,
  },
};
export type BundleRoute = keyof typeof bundleRoutes;

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

export type ChunkSize = { file: string; rawKB: number; gzipKB: number };
export type RouteFigures = {
  path: string;
  budgetKB: number;
  targetKB?: number;
  gzipKB: number;
  rawKB: number;
  chunks: ChunkSize[];
};
export type BundleFigures = {
  routes: Record<BundleRoute, RouteFigures>;
  /** The largest JS chunks of the build that no budgeted route loads up front. */
  largestLazyChunks: ChunkSize[];
};

const kB = (bytes: number) => Math.round(bytes / 10) / 100;

export function readManifest(dist = webDist): Manifest {
  const manifestPath = path.join(dist, '.vite/manifest.json');
  if (!existsSync(manifestPath)) {
    throw new Error(`${path.relative(process.cwd(), manifestPath)} is missing: run "npm run build" first`);
  }
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

type Bytes = { file: string; raw: number; gzip: number };

function sizeOf(dist: string, file: string, cache: Map<string, Bytes>): Bytes {
  let size = cache.get(file);
  if (!size) {
    const code = readFileSync(path.join(dist, file));
    size = { file, raw: code.length, gzip: gzipSync(code).length };
    cache.set(file, size);
  }
  return size;
}

const inKB = ({ file, raw, gzip }: Bytes): ChunkSize => ({ file, rawKB: kB(raw), gzipKB: kB(gzip) });

/** The manifest keys of `keys` and of every chunk they import statically, transitively. */
function staticClosure(manifest: Manifest, keys: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not a chunk of the build`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

/** The figures of the build in `dist` (apps/web/dist by default). */
export function measureBundle(dist = webDist): BundleFigures {
  const manifest = readManifest(dist);
  const entries = Object.keys(manifest).filter((key) => manifest[key].isEntry);
  if (entries.length === 0) throw new Error('the manifest has no entry chunk');
  const cache = new Map<string, Bytes>();
  const initialFiles = new Set<string>();

  const routes = {} as Record<BundleRoute, RouteFigures>;
  for (const name of Object.keys(bundleRoutes) as BundleRoute[]) {
    const route = bundleRoutes[name];
    for (const page of route.pages) {
      if (!manifest[page]?.isDynamicEntry) {
        throw new Error(
          `${page} (the ${name} route) is not a lazy chunk of its own: is it still lazy in router.tsx or app-routes.tsx?`,
        );
      }
    }
    const chunks = [...staticClosure(manifest, [...entries, ...route.pages])]
      .map((key) => manifest[key].file)
      .filter((file) => file.endsWith('.js'))
      .map((file) => sizeOf(dist, file, cache))
      .sort((a, b) => b.gzip - a.gzip);
    chunks.forEach((chunk) => initialFiles.add(chunk.file));
    routes[name] = {
      path: route.path,
      budgetKB: route.budgetKB,
      targetKB: route.targetKB,
      gzipKB: kB(chunks.reduce((sum, chunk) => sum + chunk.gzip, 0)),
      rawKB: kB(chunks.reduce((sum, chunk) => sum + chunk.raw, 0)),
      chunks: chunks.map(inKB),
    };
  }

  const largestLazyChunks = [...new Set(Object.values(manifest).map((chunk) => chunk.file))]
    .filter((file) => file.endsWith('.js') && !initialFiles.has(file))
    .map((file) => sizeOf(dist, file, cache))
    .sort((a, b) => b.gzip - a.gzip)
    .slice(0, 8)
    .map(inKB);
  return { routes, largestLazyChunks };
}
