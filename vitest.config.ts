import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    reporters: ['default', './test/support/count-reporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Vitest's default in run mode is CPUs − 1: one file at a time on a 2-core machine (6m51s).
    // Most end-to-end files wait on child processes and sockets, so two at a time take 4 min;
    // their timing assertions are checked under load (busy loops) to hold with this.
    maxWorkers: 2,
  },
});
