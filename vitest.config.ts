import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

// One runner, one project per workspace. Server tests share one Postgres (started in the
// global setup); each test file gets a database of its own, cloned from a migrated template.
export default defineConfig({
  test: {
    projects: [
      { test: { name: 'contracts', include: ['packages/contracts/src/**/*.test.ts'], isolate: false } },
      { test: { name: 'engine', include: ['packages/engine/src/**/*.test.ts'], isolate: false } },
      // The repository's own tooling (scripts/).
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], isolate: false } },
      {
        // The web app's '@/…' imports, as in apps/web/vite.config.ts.
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
        test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node', isolate: false },
      },
      {
        // Components in a DOM (happy-dom), with Testing Library; the network is mocked with MSW.
        resolve: { alias: { '@': fileURLToPath(new URL('./apps/web/src', import.meta.url)) } },
        test: {
          name: 'web-dom',
          include: ['apps/web/src/**/*.dom.test.tsx', 'apps/web/widget/**/*.dom.test.ts'],
          environment: 'happy-dom',
          environmentOptions: { happyDOM: { url: 'http://localhost:3000' } },
          setupFiles: ['apps/web/src/testing/dom-setup.ts'],
          // The first render of a page's modules is slow on a loaded machine; tests wait for conditions.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'packages/db/src/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'apps/server/src/**/*.netns.test.ts'],
          globalSetup: ['apps/server/src/testing/global-setup.ts'],
          // The files of a worker share its loaded modules (docs/decisions/0059-tests-share-loaded-modules.md):
          // evaluating the server's modules again for each file took about 60 % of the suite's time. A
          // file that needs a module fresh says so with vi.resetModules() before importing it.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Several machines in Linux network namespaces (apps/server/src/testing/netns/): needs root and
        // starts its own PostgreSQL, so it runs apart (npm run test:netns, beside the other suites).
        test: {
          name: 'netns',
          include: ['apps/server/src/**/*.netns.test.ts'],
          testTimeout: 90_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
