/**
 * Storefront curation from the console, on a laptop and on a phone: an editor adds a hot search word
 * and a pop-up box from the console's forms (a refused form keeps what was typed and says what is
 * wrong), and an anonymous buyer sees both on the home page; retired, they are gone. Each home visit
 * is a fresh visitor in a city of its own, so no other spec's cached home page is what it reads; the
 * editor's writes move the catalogue version, which the shared page cache is keyed on.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';
import { BASE_URL } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => {
  test.slow();
  await ownClientAddress(context, testInfo);
  const { userId } = await signUpByEmail(context.request, 'storefront-editor');
  await fixture('make-staff', { userId: Number(userId), role: 'editor' });
});

/** No sideways scroll: the page is no wider than the screen. */
async function fitsTheScreen(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
}

/** An anonymous buyer's home page in a city of the visit's own, read again until the change shows (the version is reread within a second). */
async function homeOfFreshVisitor(browser: Browser, cityId: number, check: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext();
  await context.addCookies([{ name: 'cityId', value: String(cityId), url: BASE_URL }]);
  const page = await context.newPage();
  await expect(async () => {
    await page.goto('/en/');
    await check(page);
  }).toPass({ timeout: 20_000 });
  await context.close();
}

async function addHotSearch(page: Page, word: string): Promise<void> {
  await page.goto('/en/ops/storefront/hot-searches');
  await expect(page.getByRole('heading', { level: 1, name: 'Hot searches' })).toBeVisible();
  await fitsTheScreen(page);
  const form = page.getByRole('region', { name: 'Add one' });
  await form.getByLabel('Readers').selectOption('en');
  await form.getByLabel('Line shown with it (optional)').fill('Typed before the error');
  await form.getByRole('button', { name: 'Add' }).click();
  // Refused without a word: the field says so, and what was typed stays.
  await expect(form.getByLabel('Search word')).toHaveAttribute('aria-invalid', 'true');
  await expect(form).toContainText('Required info cannot be empty or is invalid: Search word');
  await expect(form.getByLabel('Line shown with it (optional)')).toHaveValue('Typed before the error');
  await form.getByLabel('Search word').fill(word);
  await form.getByLabel('Order').fill('0');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: word })).toContainText('Live');
  await fitsTheScreen(page);
}

async function addPopup(page: Page, title: string): Promise<void> {
  await page.goto('/en/ops/storefront/popups');
  const form = page.getByRole('region', { name: 'Add one' });
  await form.getByLabel('Title (English)').fill(title);
  await form.getByLabel('Title (Traditional Chinese)').fill(`${title} 繁`);
  await form.getByLabel('Title (Simplified Chinese)').fill(`${title} 简`);
  await form.getByLabel('Text (English)').fill('Curated from the console: {amount:5000} off.');
  await form.getByLabel('Text (Traditional Chinese)').fill('由控制台設定：減{amount:5000}。');
  await form.getByLabel('Text (Simplified Chinese)').fill('由控制台设置：减{amount:5000}。');
  await form.getByLabel('Link (a path on this site, optional)').fill('https://elsewhere.example');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(form).toContainText('Use a path on this site, starting with /.');
  await expect(form.getByLabel('Title (English)')).toHaveValue(title);
  await form.getByLabel('Link (a path on this site, optional)').fill('/couponList');
  await form.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: title })).toContainText('Live');
  await fitsTheScreen(page);
}

/** Retires the item of the page's list that shows `text`, by its retire button. */
async function retire(page: Page, path: string, text: string): Promise<void> {
  await page.goto(path);
  const item = page.getByRole('listitem').filter({ hasText: text });
  await item.getByRole('button', { name: /^Retire #\d+$/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Retired' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: text })).toContainText('Retired');
}

async function curateAndSee(page: Page, browser: Browser, label: string, cityIndex: number): Promise<void> {
  const word = `Curated ${label} ${Date.now() % 100_000}`;
  const title = `Console offer ${label} ${Date.now() % 100_000}`;
  const cities = await fixture('first-cities', { count: 12 });
  const city = cities[cities.length - 1 - cityIndex].cityId;

  await page.goto('/en/ops/storefront');
  await expect(page.getByRole('link', { name: 'Hot searches' })).toBeVisible();
  await fitsTheScreen(page);
  await addHotSearch(page, word);
  await addPopup(page, title);

  await homeOfFreshVisitor(browser, city, async (home) => {
    await expect(home.getByRole('banner').getByRole('link', { name: `Search: ${word}` })).toBeAttached({ timeout: 2_000 });
    const boxes = home.getByRole('dialog', { name: 'Offers for you' });
    await expect(boxes).toContainText(title, { timeout: 2_000 });
    await expect(boxes).toContainText('Curated from the console: HK$50 off.');
  });

  await retire(page, '/en/ops/storefront/popups', title);
  await retire(page, '/en/ops/storefront/hot-searches', word);
  await homeOfFreshVisitor(browser, city, async (home) => {
    await expect(home.getByRole('heading', { name: 'Hot activities' })).toBeVisible({ timeout: 2_000 });
    await expect(home.getByRole('banner').getByRole('link', { name: `Search: ${word}` })).toHaveCount(0);
    await expect(home.getByText(title)).toHaveCount(0);
  });
}

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false });

  test('an editor adds a hot search word and a pop-up box, and a buyer sees them on the home page', async ({ page, browser }) => {
    await curateAndSee(page, browser, 'laptop', 0);
  });
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 320, height: 640 } });

  test('an editor adds a hot search word and a pop-up box, and a buyer sees them on the home page', async ({ page, browser }) => {
    await curateAndSee(page, browser, 'phone', 1);
  });
});
