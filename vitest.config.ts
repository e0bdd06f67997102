import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { localBuildDefine } from './scripts/local-build.mjs';

/** Unit tests: pure modules in Node, as a local build compiles them. The API tests have their own config (tests/api, in workerd). */
export default defineConfig({
  define: localBuildDefine(true),
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
    // Vitest leaves one core idle by default: on a 2-core machine that halves the run for nothing.
    maxWorkers: availableParallelism(),
  },
});
