/**
 * The staff console's shell: who gets in and what they see. A visitor is sent to the console's own
 * sign-in; a buyer gets the 403 page in the console's words; staff see the sections their roles cover.
 */
import { expect, test } from '@playwright/test';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';

test.beforeEach(async ({ context }, testInfo) => {
  await ownClientAddress(context, testInfo);
});

test('a visitor to the console is sent to the staff sign-in, and comes back after it', async ({ page }) => {
  await page.goto('/ops');
  await expect(page).toHaveURL(/\/ops\/sign-in\?redirect=%2Fops$/);
});

test('a buyer gets the staff-only page, with status 403 and no cache', async ({ page }) => {
  await signUpByEmail(page.request, 'console-buyer');
  const answer = await page.goto('/ops');
  expect(answer?.status()).toBe(403);
  expect(answer?.headers()['cache-control']).toBe('private, no-store');
  expect(answer?.headers()['x-robots-tag']).toBe('noindex, nofollow');
  await expect(page.getByRole('heading', { level: 1, name: 'Staff only' })).toBeVisible();
});

test('an editor sees the catalogue and the storefront, not the money or the staff (laptop)', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const { userId } = await signUpByEmail(page.request, 'console-editor');
  await fixture('make-staff', { userId, role: 'editor' });
  await page.goto('/ops');
  const sections = page.getByRole('navigation', { name: 'Console sections' });
  await expect(sections.getByRole('link', { name: 'Activities', exact: true })).toBeVisible();
  await expect(sections.getByRole('link', { name: 'Storefront', exact: true })).toBeVisible();
  await expect(sections.getByRole('link', { name: 'Exchange rates' })).toHaveCount(0);
  await expect(sections.getByRole('link', { name: 'Staff', exact: true })).toHaveCount(0);
  await expect(page.getByText('Roles: Editor')).toBeVisible();
});

test('an operator sees every section, in Traditional Chinese on a phone', async ({ page }) => {
  const { userId } = await signUpByEmail(page.request, 'console-operator');
  await fixture('make-staff', { userId, role: 'operator' });
  await page.goto('/zh-HK/ops');
  const sections = page.getByRole('navigation', { name: '後台分區' });
  for (const name of ['活動', '場館', '店面', '開售', '匯率', '職員', '審計紀錄']) {
    await expect(sections.getByRole('link', { name, exact: true })).toBeVisible();
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
});
