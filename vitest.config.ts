import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one, on a two-core machine. The files mostly wait on
    // subprocesses, so two workers halve the run and still leave the timing-sensitive tests their room.
    maxWorkers: 2,
    teardownTimeout: 10_000,
  },
});
