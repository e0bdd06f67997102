/**
 * Cloudflare Turnstile on a phone, through its local double (tests/doubles/turnstile-api.ts): a new
 * number's login code is asked for a challenge, whose widget appears, is solved and sends the code;
 * a waiting room's new place shows the widget, and solving it takes the place. The spec runs its own
 * server with Turnstile's keys (the rest of the suite's server has none, so its sign-ins ask nothing).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { devices, expect, type Page, test } from '@playwright/test';
import { e2eStateDir, migrate, ROOT, seedIfEmpty, serveArgs, WRANGLER } from '../../scripts/local-db.ts';
import { freePort } from '../../scripts/server.ts';
import { TURNSTILE_ACTION } from '../../src/lib/config/accounts.ts';
import {
  startTurnstileDouble,
  TURNSTILE_DOUBLE_SECRET,
  TURNSTILE_DOUBLE_SITE_KEY,
  type TurnstileDouble,
} from '../doubles/turnstile-api.ts';
import { codeFor, uniqueEmail } from './auth-helpers.ts';
import { fixture, listingOnSale } from './fixtures.ts';
import { localeOf } from './shop-helpers.ts';

const english = localeOf('en');
let double: TurnstileDouble;
let server: ChildProcess;
let baseURL: string;
let stateDir: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  double = await startTurnstileDouble();
  const port = await freePort();
  baseURL = `http://127.0.0.1:${port}`;
  stateDir = e2eStateDir(port);
  rmSync(stateDir, { recursive: true, force: true });
  migrate(stateDir);
  seedIfEmpty(stateDir);
  const vars = {
    APP_ENV: 'local',
    TURNSTILE_SITE_KEY: TURNSTILE_DOUBLE_SITE_KEY,
    TURNSTILE_SECRET_KEY: TURNSTILE_DOUBLE_SECRET,
    TURNSTILE_API_URL: double.url,
    TURNSTILE_SCRIPT_URL: double.scriptUrl,
  };
  server = spawn(WRANGLER, serveArgs(stateDir, port, vars), { cwd: ROOT, stdio: 'ignore' });
  await expect.poll(async () => (await fetch(`${baseURL}/api/v1/currency`).catch(() => null))?.status, { timeout: 180_000 }).toBe(200);
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await double?.close();
  if (stateDir) rmSync(stateDir, { recursive: true, force: true });
});

async function phone(browser: import('@playwright/test').Browser, address: string): Promise<Page> {
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL, extraHTTPHeaders: { 'cf-connecting-ip': address } });
  return context.newPage();
}

/** The stand-in widget's frame, as the real one is: a frame from Turnstile's origin with its button. */
const verifyButton = (page: Page) =>
  page
    .frameLocator('iframe[title="Widget containing a Cloudflare security challenge"]')
    .getByRole('button', { name: 'Verify you are human' });

test('a new number asks a challenge before its first login code, and the solved widget sends it', async ({ browser }) => {
  const page = await phone(browser, '198.18.200.1');
  const number = `6${String(Date.now()).slice(-7)}`;
  await page.goto('/en/login');
  await page.getByLabel(english.say('auth.form.phone')).fill(number);
  await page.getByRole('button', { name: english.say('auth.form.sendCode') }).click();

  await expect(page.getByText(english.say('auth.form.challenge'))).toBeVisible();
  await expect(page.getByText(english.say('error.challenge_required'))).toBeVisible();
  await verifyButton(page).click();

  await expect(page.getByText(english.say('auth.form.codeSent'))).toBeVisible();
  await expect(page.getByText(english.say('auth.form.challenge'))).toBeHidden();
  expect(await codeFor(page.request, `+852 ${number}`)).toMatch(/^\d{6}$/);
});

test('a new place in a waiting room is taken once the challenge is solved; a reload keeps it without one', async ({ browser }) => {
  const page = await phone(browser, '198.18.200.2');
  const listing = await listingOnSale({ activityStates: ['onSale'], sessionStartsIn: 0, order: 'oldest' }, baseURL);
  const session = { id: listing!.sessionId };
  await fixture('set-session-high-demand', { sessionId: session.id, highDemand: true }, baseURL);
  // Nobody is let through by the room itself: the page stays on the place it shows.
  expect((await page.request.post(`/api/v1/dev/waiting-rooms/${session.id}`, { data: { admissionsPerMinute: 0 } })).status()).toBe(200);

  const email = uniqueEmail('turnstile-queue');
  const turnstileToken = double.solve({ hostname: '127.0.0.1', action: TURNSTILE_ACTION.loginCode });
  expect((await page.request.post('/api/v1/user/mail/regVerify', { data: { email, turnstileToken } })).status()).toBe(200);
  const registered = await page.request.post('/api/v1/user/mail/register', {
    data: { email, code: await codeFor(page.request, email), password: 'Tickets2026', agreement: true },
  });
  expect(registered.status(), await registered.text()).toBe(200);

  await page.goto(`/en/waiting-room/${session.id}`);
  await expect(page.getByText(english.say('waitingRoom.challenge'))).toBeVisible();
  await verifyButton(page).click();
  await expect(page.getByRole('status').getByText(english.say('waitingRoom.place', { place: 1 }))).toBeVisible();

  await page.reload();
  await expect(page.getByRole('status').getByText(english.say('waitingRoom.place', { place: 1 }))).toBeVisible();
  await expect(page.getByText(english.say('waitingRoom.challenge'))).toBeHidden();
});
