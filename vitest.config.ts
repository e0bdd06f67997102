import { defineConfig } from 'vitest/config';

/** Unit tests: pure modules in Node. The API tests have their own config (tests/api, in workerd). */
export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts'],
    environment: 'node',
  },
});
