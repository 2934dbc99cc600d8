// The embeddable chat widget (widget/widget.ts), built after the app into dist/widget.js: one classic
// script (an IIFE, no module, no chunk, no dependency) that other sites load with a script tag. It
// leaves the app's build alone: dist is not emptied, the app's manifest not rewritten, public/ not copied.
import { defineConfig } from 'vite';

export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    manifest: false,
    copyPublicDir: false,
    // Other sites' visitors: browsers a few years old too.
    target: 'es2019',
    lib: {
      entry: 'widget/widget.ts',
      formats: ['iife'],
      name: 'CrewlineChatWidget',
      fileName: () => 'widget.js',
    },
  },
});
