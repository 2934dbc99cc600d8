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
    // Route pages are lazy (see src/app/router.tsx). The framework code every screen needs goes into
    // two long-lived vendor chunks; everything else (radix primitives, forms, icons) is split per route,
    // so the landing page only downloads what it renders.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'react-vendor',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]/,
              priority: 20,
            },
            { name: 'query-vendor', test: /[\\/]node_modules[\\/]@tanstack[\\/]/, priority: 10 },
            // Form validation (zod, react-hook-form, the shared contracts): only the auth screens and
            // the editors need it, never the landing page.
            {
              name: 'forms-vendor',
              test: /[\\/](node_modules[\\/](zod|react-hook-form|@hookform)|packages[\\/]contracts)[\\/]/,
              priority: 5,
            },
          ],
        },
      },
    },
  },
});
