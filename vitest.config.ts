import { availableParallelism } from 'node:os';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { localBuildDefine } from './integrations/local-build.ts';
import { seedReferenceTime } from './scripts/local-db.ts';

const root = import.meta.dirname;

/**
 * Two projects, both compiled as a local build compiles the source (LOCAL_BUILD: the dev routes the API tests drive are
 * there): `unit`, pure modules in Node, and `api`, the API inside workerd against a real D1 with the project's migrations
 * applied. Stripe is the local double of its API (tests/doubles/stripe-api.ts), started by the api project's global
 * setup for the whole run; a local build still pays in the sandbox, so only tests that act as a deployed build reach it.
 * So is Turnstile's siteverify (tests/doubles/turnstile-api.ts), reached by tests that set its keys.
 * `npm test` runs them one after the other (`vitest run --project unit`, then `--project api`).
 */
export default defineConfig({
  define: localBuildDefine(true),
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts'],
          environment: 'node',
          // Vitest leaves one core idle by default: on a 2-core machine that halves the run for nothing.
          maxWorkers: availableParallelism(),
        },
      },
      {
        extends: true,
        plugins: [
          // Read when the project runs, after its global setup has started the doubles.
          cloudflareTest(async ({ inject }) => ({
            // The Durable Object classes src/worker.ts exports (tests/api/worker.ts), bound as wrangler.toml binds them.
            main: path.join(root, 'tests/api/worker.ts'),
            miniflare: {
              compatibilityDate: '2026-10-12',
              compatibilityFlags: ['nodejs_compat'],
              d1Databases: ['DB'],
              durableObjects: {
                SESSION_INVENTORY: { className: 'SessionInventory', useSQLite: true },
                WAITING_ROOM: { className: 'WaitingRoom', useSQLite: true },
              },
              // A producer only: tests hand queue batches to the consumer themselves (tests/api/messages.test.ts).
              queueProducers: { MESSAGES: { queueName: 'ticket-messages' } },
              // Uploaded images (tests/api/images.test.ts): an in-memory bucket, and Images emulated by sharp in Node, as wrangler does.
              r2Buckets: ['MEDIA'],
              images: { binding: 'IMAGES' },
              bindings: {
                APP_ENV: 'local',
                TEST_MIGRATIONS: await readD1Migrations(path.join(root, 'migrations')),
                // The day the demo seed is made for, as `npm start` makes it (SEED_REFERENCE_DAY to choose another).
                SEED_REFERENCE_TIME: String(seedReferenceTime()),
                STRIPE_SECRET_KEY: 'sk_test_double',
                STRIPE_WEBHOOK_SECRET: 'whsec_double',
                STRIPE_API_URL: inject('stripeApiUrl'),
                // Turnstile's keys are set per test (tests/api/turnstile.test.ts): every other test runs as a local build without them.
                TURNSTILE_API_URL: inject('turnstileApiUrl'),
                FX_RATES_API_URL: inject('fxRatesApiUrl'),
              },
            },
          })),
        ],
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/api/global-setup.ts'],
          setupFiles: ['tests/api/setup.ts'],
          // The concurrency tests take 0.5-2 s on an idle machine; a busy 2-core runner can take several
          // times that, and vitest's 5 s default then fails a test that is merely slow.
          testTimeout: 30_000,
          // A file's beforeAll seeds the catalogue: a second or two when idle, but more than vitest's 10 s
          // default on a machine running two suites at once.
          hookTimeout: 30_000,
          // Vitest leaves one core idle by default; each worker's tests run in workerd, so on 2 cores two
          // workers take 4 min 51 s where one took 8 min 43 s.
          maxWorkers: availableParallelism(),
        },
      },
    ],
  },
});
