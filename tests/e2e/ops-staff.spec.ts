/**
 * Staff accounts in the console: an operator invites a phone to a role, the invitee joins with that
 * phone's code, adds a passkey (Chromium's virtual authenticator), signs out and back in with it;
 * a buyer gets the console's 403 on every section; a visitor is sent to the console's sign-in.
 * The pages are opened on `localhost`: a passkey is bound to a host name, and an IP address is none.
 */
import { expect, type Page, test } from '@playwright/test';
import { CONSOLE_SECTIONS } from '../../src/lib/console-sections.ts';
import { codeFor, ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';

const port = Number(process.env.E2E_PORT) || 8788;
test.use({ baseURL: `http://localhost:${port}` });

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

const uniquePhone = () => String(50_000_000 + Math.floor(Math.random() * 9_999_999));

/** A platform authenticator that holds discoverable credentials and verifies its user, as a phone's or laptop's does. */
async function virtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

test('an invited person joins with the phone code, adds a passkey, and signs back in with it', async ({ page, browser }, testInfo) => {
  test.slow();
  const operatorContext = await browser.newContext({ ...testInfo.project.use, baseURL: `http://localhost:${port}` });
  await ownClientAddress(operatorContext, testInfo);
  const { userId } = await signUpByEmail(operatorContext.request, 'ops-operator');
  await fixture('make-staff', { userId, role: 'operator' });

  const operatorPage = await operatorContext.newPage();
  await operatorPage.goto('/ops/staff');
  await expect(operatorPage.getByRole('heading', { name: 'Staff', exact: true })).toBeVisible();
  const phone = uniquePhone();
  await operatorPage.getByRole('textbox', { name: 'Phone number' }).fill(phone);
  await operatorPage.getByRole('combobox', { name: 'Role' }).selectOption('editor');
  await operatorPage.getByRole('button', { name: 'Create the invitation' }).click();
  const linkBox = operatorPage.getByRole('textbox', { name: 'Invitation link' });
  await expect(linkBox).toHaveValue(new RegExp(`^http://localhost:${port}/ops/join/[A-Za-z0-9_-]{43}$`));
  const link = await linkBox.inputValue();
  await expect(operatorPage.getByRole('cell', { name: `+852 ${phone}` })).toBeVisible();
  await operatorContext.close();

  await virtualAuthenticator(page);
  await page.goto(link);
  await expect(page.getByText("You are invited to join the marketplace's staff as Editor.")).toBeVisible();
  await page.getByRole('button', { name: /^Send the code to \+852 •+\d{4}$/ }).click();
  await expect(page.getByText('Code sent', { exact: true })).toBeVisible();
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(await codeFor(page.request, `+852 ${phone}`));
  await page.getByRole('button', { name: 'Sign in with the code' }).click();
  await page.getByRole('button', { name: 'Accept the invitation' }).click();
  await expect(page.getByText('You are now on the staff as Editor.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Name of the new passkey' }).fill('Test phone');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('Passkey added', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Go to the console' }).click();
  await page.getByRole('navigation').getByRole('link', { name: 'Your passkeys' }).click();
  await expect(page.getByRole('cell', { name: 'Test phone' })).toBeVisible();
  // The sign-out button works once its island has hydrated (Astro drops the island's `ssr` mark then).
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/ops\/sign-in\?redirect=%2Fops%2Fpasskeys$/);

  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/ops\/passkeys$/);
  await expect(page.getByRole('heading', { name: 'Your passkeys' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Never' })).toHaveCount(0);
});

test('a buyer gets the console’s 403 on every section', async ({ page }) => {
  await signUpByEmail(page.request, 'ops-buyer');
  for (const section of CONSOLE_SECTIONS) {
    const response = await page.goto(section.path);
    expect(response?.status(), section.path).toBe(403);
    await expect(page.getByRole('heading', { name: 'Staff only' })).toBeVisible();
  }
});

test('a visitor to the console is sent to its sign-in', async ({ page }) => {
  await page.goto('/ops');
  await expect(page).toHaveURL(/\/ops\/sign-in\?redirect=%2Fops$/);
  await expect(page.getByRole('button', { name: 'Sign in with a passkey' })).toBeVisible();
  await page.getByText('Lost your passkey? Sign in with a code sent to your phone').click();
  await expect(page.getByRole('textbox', { name: 'Phone number' })).toBeVisible();
});
