import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

const root = path.resolve(import.meta.dirname, '../..');

/** API tests run inside workerd against a real D1 with the project's migrations applied. */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(root, 'migrations'));
  return {
    root,
    plugins: [
      cloudflareTest({
        miniflare: {
          compatibilityDate: '2026-10-12',
          compatibilityFlags: ['nodejs_compat'],
          d1Databases: ['DB'],
          bindings: { APP_ENV: 'local', TEST_MIGRATIONS: migrations },
        },
      }),
    ],
    test: {
      include: ['tests/api/**/*.test.ts'],
      setupFiles: ['tests/api/setup.ts'],
      // The concurrency tests take 0.5-2 s on an idle machine; a busy 2-core runner can take several
      // times that, and vitest's 5 s default then fails a test that is merely slow.
      testTimeout: 30_000,
    },
  };
});
