import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';

export default defineConfig({
  plugins: [
    react(),
    // every text asset also as .br and .gz, made once at build: the server sends the one the
    // browser accepts (@fastify/static preCompressed) instead of compressing per request
    compression({
      algorithms: [defineAlgorithm('brotliCompress'), defineAlgorithm('gzip', { level: 9 })],
      include: /\.(js|css|html|svg|json)$/,
      threshold: 1024,
      logLevel: 'silent',
    }),
  ],
  server: {
    port: 5173,
    proxy: { '/general': 'http://127.0.0.1:8080' },
  },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json: the chunk graph the bundle budget check walks (scripts/bundle-budget.mjs)
    manifest: true,
    // the default chunk-size warning stays on (no chunkSizeWarningLimit): a chunk over 500 kB is
    // worth a look
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // React, its router and i18next: libraries every page uses that import nothing of
              // the app's (nor of antd), so the login chunk can import this one and never the
              // reverse. They leave the login chunk under Vite's 500 kB warning (~440 kB) at no
              // cost in gzip; react-i18next stays with the login chunk (moved here it costs
              // ~4 kB gzip: it drags shared helpers along)
              name: 'vendor',
              test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|i18next)[\\/]/,
              priority: 2,
            },
            {
              // the rest of what the login page needs, as one chunk: the entry and the login
              // page with every module they import (the pages after login keep their own
              // chunks). Left to the automatic splitting these modules spread over ~30 files,
              // which costs ~17 kB gzip more. Not split by size (maxSize): parts of one group
              // import each other, and such a cycle runs modules before their imports exist.
              name: 'login',
              test: /[\\/]src[\\/](main\.tsx|features[\\/]auth[\\/]pages[\\/]LoginPage\.tsx)$/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
