import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'domain',
    include: ['src/**/*.test.ts'],
    // the property tests run thousands of cases on CPU: on a shared, loaded machine one took 6 s
    // against the default 5 s; a limit is for a hang, not for speed (speed belongs in bench/)
    testTimeout: 30_000,
  },
});
