import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One test file per core. Vitest's default leaves one core free, which on two cores runs the
    // files one at a time, while many of them mostly wait on a child process or a server.
    maxWorkers: availableParallelism(),
  },
});
