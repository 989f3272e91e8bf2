import { defineConfig } from 'vitest/config';
import server from './apps/server/vitest.config.ts';

/**
 * The server tests that replace a module (vi.mock) need a module registry of their own; the
 * rest share one per worker (isolate: false), which spares each file from importing the whole
 * server again: on two cores that import was a third of the suite's time.
 */
const SERVER_MOCKING = [
  'src/modules/auth/login-timing.test.ts',
  'src/modules/ingest/mqtt-order.test.ts',
  'src/platform/images.test.ts',
];

export default defineConfig({
  test: {
    projects: [
      'packages/domain',
      {
        root: './apps/server',
        test: { ...server.test, name: 'server', isolate: false, exclude: SERVER_MOCKING },
      },
      { root: './apps/server', test: { ...server.test, name: 'server-mocking', include: SERVER_MOCKING } },
      'apps/gateway-sim',
      // the web app's pure client logic (the live hub, the reconnecting socket); the browser
      // tests have their own config (apps/web/e2e)
      { test: { name: 'web', include: ['apps/web/src/**/*.test.ts'], environment: 'node' } },
      // the build and test scripts' own logic (the bundle budget)
      { test: { name: 'scripts', include: ['scripts/**/*.test.mjs'] } },
    ],
  },
});
