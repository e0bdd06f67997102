/**
 * Two faults an island must survive, on a phone: (a) an API call answered 401 mid-form (the session
 * ended on the server) lands on login and, signed in again, back on the same page, path and query;
 * (b) text typed into the login form before its island hydrated survives hydration.
 */
import { expect, test } from '@playwright/test';
import { codeFor, ownClientAddress, signUpByEmail } from './auth-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

test('a 401 mid-form goes to login and, after signing in, back to the same page and query', async ({ page, context }) => {
  const { email } = await signUpByEmail(page.request, 'expired');
  const formPath = '/en/address/create?source=e2e';
  await page.goto(formPath);
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
  await page.getByLabel('Recipient name').fill('Chan Tai Man');
  await page.getByLabel('Phone number').fill('91234567');
  await page.getByLabel('District / region').selectOption({ label: 'Wan Chai' });
  await page.getByLabel('Street and building').fill("1 Queen's Road East");

  // The session ends on the server (logout), while the browser still holds its cookies.
  const cookies = await context.cookies();
  expect((await page.request.get('/api/v1/user/logout')).status()).toBe(200);
  await context.addCookies(cookies);

  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL((url) => url.pathname === '/en/login' && url.searchParams.get('redirect') === formPath);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in or register' })).toBeVisible();

  await expect(page.getByRole('button', { name: 'Log in / Register' })).toBeEnabled();
  await page.getByRole('tab', { name: 'Email' }).click();
  await page.getByRole('button', { name: 'Log in with password' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('Tickets2026');
  await page.getByRole('checkbox', { name: /I have read and agree/ }).check();
  await page.getByRole('button', { name: 'Log in', exact: true }).click();

  await page.waitForURL((url) => url.pathname + url.search === formPath);
  await expect(page.getByRole('button', { name: 'Save' })).toBeEnabled();
  await expect(page.getByLabel('Recipient name')).toBeVisible();
});

test('a phone number typed before the login form hydrated is kept, and the form works with it', async ({ page }) => {
  const phone = String(60_000_000 + Math.floor(Math.random() * 9_999_999));
  // Hold the login island's script back, as a slow connection would, until the number is typed.
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let held = false;
  await page.route(/\/_astro\/LoginForm\.[^/]*\.js$/, async (route) => {
    held = true;
    await released;
    await route.continue();
  });

  await page.goto('/en/login', { waitUntil: 'domcontentloaded' });
  const submit = page.getByRole('button', { name: 'Log in / Register' });
  await expect(submit).toBeDisabled();
  await page.getByLabel('Phone number').fill(phone);
  expect(held, 'the island script was held back while typing').toBe(true);
  await expect(submit).toBeDisabled();

  release();
  await expect(submit).toBeEnabled();
  await expect(page.getByLabel('Phone number')).toHaveValue(phone);

  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('status')).toContainText('Verification code was sent');
  await expect(page.getByText('Phone cannot be empty')).toHaveCount(0);
  await page.getByLabel('Verification code').fill(await codeFor(page.request, `+852 ${phone}`));
  await page.getByRole('checkbox', { name: /I have read and agree/ }).check();
  await submit.click();
  await page.waitForURL((url) => url.pathname === '/en/');
});
