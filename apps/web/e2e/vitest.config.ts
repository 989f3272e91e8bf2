import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    root: new URL('.', import.meta.url).pathname,
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    // every test fails on a page error or console error it did not allow
    setupFiles: ['./guard.setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // a page answers a click in well under a second on a quiet machine; a loaded one (the server
    // suite on PostgreSQL runs beside these) takes seconds: a poll waits as a person would
    expect: { poll: { timeout: 15_000 } },
    // each file starts its own server and browser; one file per run (npm test runs the files as
    // a queue on up to two workers: scripts/test.mjs)
    fileParallelism: false,
  },
});
