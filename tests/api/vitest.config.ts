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
    },
  };
});
