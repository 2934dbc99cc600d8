/// <reference types="node" />
import { fileURLToPath, URL } from 'node:url';

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const apiTarget = 'http://127.0.0.1:5000';

export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  server: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      // The API reference is the server's page (apps/server/src/platform/api-reference.ts), not the SPA's;
      // /docs/api-keys and the other guides stay the SPA's.
      '^/docs/api(/|$)': { target: apiTarget, changeOrigin: true },
      '/ws': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
  preview: {
    proxy: {
      '/api': { target: apiTarget, changeOrigin: true },
      // The API reference is the server's page (apps/server/src/platform/api-reference.ts), not the SPA's;
      // /docs/api-keys and the other guides stay the SPA's.
      '^/docs/api(/|$)': { target: apiTarget, changeOrigin: true },
      '/ws': { target: apiTarget, ws: true, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: which chunks each entry and route page loads, read by the bundle budget
    // (scripts/check-bundle.ts) and the bundle-size bench.
    manifest: true,
    // Route pages are lazy (src/app/router.tsx, src/app/app-routes.tsx). Rolldown would put every
    // module that a different set of pages shares into a chunk of its own, and each chunk costs its
    // import and export lists and its own compression: so the code most screens need is grouped into
    // a few chunks, each downloaded by the screens that use it, while the rest (radix primitives,
    // forms, icons, each page's own code) stays split per route.
    rolldownOptions: {
      // Imported constants are written where they are used: the API's paths
      // (@crewline/contracts/paths) then sit in the chunks that read them, and the shell's first
      // JavaScript carries only the paths of its own keys and calls, not every endpoint's.
      optimization: { inlineConst: { mode: 'all' } },
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'react-vendor',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 20,
            },
            { name: 'query-vendor', test: /[\\/]node_modules[\\/]@tanstack[\\/]/, priority: 10 },
            // The icons of the signed-in shell and the dashboard (none of the landing page's): one chunk
            // rather than one each, whose import and export lists cost the first JavaScript about as
            // much as the icons (2.7 kB of the dashboard's). Below ui-core's priority, so the icons'
            // shared helper stays there and the landing page does not load this chunk.
            {
              name: 'app-icons',
              test: /[\\/]node_modules[\\/]lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](cpu|user-round|building-complex|wrench|bot|book-open|rotate-ccw-clock|chart-column|layout-dashboard|layout-template|circle-x|library|play|clock-3|plus|check|chevron-right|log-out|clipboard-check)\.mjs$/,
              priority: 3,
            },
            // What every screen draws with, the landing page's first screen included (it has no
            // tailwind-merge and no Radix): the class and icon helpers, the button and badge classes,
            // the brand, the theme switch, the loading screen, the stored token and Vite's preloader.
            {
              name: 'ui-core',
              test: /vite[\\/]preload-helper|[\\/]node_modules[\\/](clsx|class-variance-authority|lucide-react[\\/]dist[\\/]esm[\\/](?!icons[\\/]))|[\\/]src[\\/](lib[\\/]auth-token|components[\\/](brand|theme-toggle|full-page-spinner|ui[\\/](button|badge)-variants))\.tsx?$/,
              priority: 8,
            },
            // What every other screen loads before its page (app-routes.tsx): the providers, the
            // session (and the organizations it can switch to, which the consent page reads too), the API and query clients, the toasts' store, tailwind-merge and the
            // primitives nearly every page draws (Radix's Primitive too: a lazy screen importing it
            // alone would split it into a chunk of its own that the dashboard loads).
            {
              name: 'app-core',
              test: /[\\/]node_modules[\\/](tailwind-merge|@radix-ui[\\/]react-primitive)[\\/]|[\\/]src[\\/](app[\\/]providers|lib[\\/](api|session|organization-switch|query-client|utils|use-document-title|queries[\\/](keys|query-fn))|components[\\/](spinner|ui[\\/](use-toast|button|card|badge)))\.tsx?$/,
              priority: 6,
            },
            // The contracts' vocabulary (plans, providers, kinds, run statuses) and the API's paths
            // (endpoints/paths/, mostly inlined where read): plain values without zod, read by the
            // shell, the lists and the landing page, so kept out of forms-vendor.
            {
              name: 'vocabulary',
              test: /[\\/]packages[\\/]contracts[\\/]src[\\/](vocabulary|endpoints[\\/]paths)[\\/]/,
              priority: 7,
            },
            // Validation (zod, the shared contracts): only the auth screens and the editors need it,
            // never the landing page.
            {
              name: 'forms-vendor',
              test: /[\\/](node_modules[\\/]zod|packages[\\/]contracts)[\\/]/,
              priority: 5,
            },
            // The forms (react-hook-form and its zod resolver), apart: the builder's canvas reads the
            // contracts' node schemas but draws no such form until a panel or dialog opens.
            {
              name: 'form-hooks',
              test: /[\\/]node_modules[\\/](react-hook-form|@hookform)[\\/]/,
              priority: 5,
            },
            // The signed-in screens' shared reads and small widgets (the dashboard and the lists).
            {
              name: 'app-shared',
              test: /[\\/]src[\\/](lib[\\/](format|use-now|queries[\\/][^\\/]+)|components[\\/](status-badge|empty-state|page-header|ui[\\/]skeleton))\.tsx?$/,
              priority: 4,
            },
          ],
        },
      },
    },
  },
});
