import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT) || 8788;

/** Phone-sized Chromium (Debian's) against the built worker on a freshly seeded database. */
export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Assertions poll for what a user would see; these caps only bound how long a busy 2-core
  // machine may take for a server round-trip and a page load before a test counts as failed.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  // Playwright empties its output folder on start; keep it apart from the other suites' reports.
  outputDir: 'test-results/e2e-artifacts',
  use: {
    ...devices['Pixel 7'],
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'phone', testIgnore: /edge-cache\.spec\.ts$/ },
    // It changes listing prices for a moment: after every other spec, so none sees them.
    { name: 'edge-cache', testMatch: /edge-cache\.spec\.ts$/, dependencies: ['phone'] },
  ],
  // `npm test` starts the server once for these tests and Lighthouse; run alone, Playwright starts it.
  webServer: process.env.E2E_SERVER_RUNNING
    ? undefined
    : {
        command: 'node scripts/e2e-server.ts',
        url: `http://127.0.0.1:${port}/api/v1/currency`,
        timeout: 180_000,
        reuseExistingServer: false,
        stdout: 'ignore',
        stderr: 'pipe',
      },
});
