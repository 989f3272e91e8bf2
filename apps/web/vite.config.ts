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
  // the default chunk-size warning stays on: a chunk over 500 kB is worth a look
  build: { outDir: 'dist' },
});
