import { expect, test } from '@playwright/test';

test.describe('home page on a phone', () => {
  test('renders in English with priced activities, header and footer', async ({ page }) => {
    const response = await page.goto('/en/');
    expect(response?.status()).toBe(200);
    await expect(page).toHaveTitle(/TicketWing/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByRole('heading', { name: 'Hot activities' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Bargain sales' })).toBeVisible();
    const firstCard = page.getByRole('article').first();
    await expect(firstCard).toContainText(/HK\$[\d,.]+\+/);
    await expect(page.getByRole('banner')).toContainText('Hong Kong');
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'About us' })).toHaveAttribute('href', '/en/about');
    await expect(footer).toContainText('Mon-Fri 10:00-18:00');
    await expect(footer).toContainText('Sat-Sun 10:00-17:00');
    await expect(page.getByRole('link', { name: 'Customer service' })).toHaveCount(0);
  });

  test('renders in Traditional Chinese under /zh-HK with the customer-service link', async ({ page }) => {
    await page.goto('/zh-HK/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-HK');
    await expect(page.getByRole('heading', { name: '熱門活動' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('香港');
    await expect(page.getByRole('contentinfo').getByRole('link', { name: '關於我們' })).toHaveAttribute('href', '/zh-HK/about');
    await expect(page.getByRole('link', { name: '客戶服務' })).toBeVisible();
  });

  test('switches language from the header menu', async ({ page }) => {
    await page.goto('/en/');
    await page.getByRole('banner').getByLabel('Language and currency').click();
    const popup = page.getByRole('dialog', { name: 'Language and currency' });
    await popup.getByRole('radio', { name: '简体中文' }).check();
    await popup.getByRole('button', { name: 'Confirm' }).click();
    await page.waitForURL(/\/zh-CN\/$/); // saved on the server, then a navigation
    await expect(page.getByRole('heading', { name: '热门活动' })).toBeVisible();
  });

  test('caps the layout at 600 px on a wide screen', async ({ page }) => {
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.goto('/en/');
    const box = await page.getByRole('main').boundingBox();
    expect(box?.width).toBeLessThanOrEqual(600);
  });
});

test.describe('language negotiation', () => {
  test.use({ locale: 'zh-CN', extraHTTPHeaders: { 'accept-language': 'zh-CN,zh;q=0.9' } });

  test('renders an unprefixed URL in the browser language without redirecting', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.url()).toMatch(/\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/zh-CN\/$/);
    await expect(page.locator('link[rel="alternate"][hreflang="zh-TW"]')).toHaveAttribute('href', /\/zh-TW\/$/);
  });
});

test.describe('middleware', () => {
  test('sends a visitor on an auth route to login with the full path as redirect', async ({ page }) => {
    await page.goto('/zh-HK/orders?tab=2');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/zh-HK/login');
    expect(url.searchParams.get('redirect')).toBe('/zh-HK/orders?tab=2');
  });

  test('stores the channel in a cookie and ad click ids in session storage', async ({ page, context }) => {
    await page.goto('/en/?channel=partner_7&gclid=abc123');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'channel')?.value).toBe('partner_7');
    expect(await page.evaluate(() => sessionStorage.getItem('gclid'))).toBe('abc123');
  });

  test('shows the 404 page for unknown paths and unknown prefixes', async ({ page }) => {
    const chinese = await page.goto('/zh-HK/no/such/page');
    expect(chinese?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '找不到頁面' })).toBeVisible();
    const unknownPrefix = await page.goto('/fr/about');
    expect(unknownPrefix?.status()).toBe(404);
    await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();
  });
});
