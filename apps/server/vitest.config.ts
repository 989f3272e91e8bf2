import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances are large (~300-700 MB): keep to the machine's two cores
    maxWorkers: 2,
    sequence: { groupOrder: 1 },
  },
});
