import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Two test files at a time even on two cores: most of the suite waits on child processes, not on the CPU.
    maxWorkers: 2,
    teardownTimeout: 10_000,
    // A container engine and the test image, for test/container (see engine-setup.ts); a private Secret Service
    // on a session bus of its own, for the keyring tests (see keyring-setup.ts).
    globalSetup: ['test/container/engine-setup.ts', 'test/secrets/keyring-setup.ts'],
  },
});
