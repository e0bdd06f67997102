/** The info pages on a phone, in English and Chinese: real content, the spec's facts, working links. */
import { expect, test } from '@playwright/test';

test.describe('about and contact', () => {
  test('about explains the marketplace and links to contact', async ({ page }) => {
    await page.goto('/en/about');
    await expect(page.getByRole('heading', { level: 1, name: 'About us' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Our promises' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('compensation of up to 1:1');
    await page.getByRole('main').getByRole('link', { name: 'Contact us' }).click();
    await page.waitForURL(/\/en\/contact$/);
  });

  test('contact lists two phone numbers, the support email, hours and social links', async ({ page }) => {
    await page.goto('/zh-HK/contact');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: '聯絡我們' })).toBeVisible();
    const phones = main.getByRole('link', { name: /^\+852/ });
    await expect(phones).toHaveCount(2);
    await expect(phones.first()).toHaveAttribute('href', /^tel:\+852\d+$/);
    await expect(main.getByRole('link', { name: /@/ })).toHaveAttribute('href', /^mailto:/);
    await expect(main).toContainText('星期一至五：10:00-18:00');
    await expect(main).toContainText('星期六及日：10:00-17:00');
    const social = main.getByRole('link', { name: /Facebook|Instagram|YouTube|^X/ });
    await expect(social).toHaveCount(4);
    for (const link of await social.all()) await expect(link).toHaveAttribute('target', '_blank');
  });
});

test.describe('legal pages', () => {
  test('the user agreement states the spec terms in English', async ({ page }) => {
    const response = await page.goto('/en/userAgreement');
    // Shared with every anonymous visitor of the language, currency and city through the edge cache.
    expect(response?.headers()['cache-control']).toMatch(/^public, max-age=0, s-maxage=\d+, stale-while-revalidate=\d+$/);
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 1, name: 'User agreement' })).toBeVisible();
    await expect(main).toContainText('Last updated: July 16, 2024');
    await expect(main).toContainText('the English version prevails');
    await expect(main).toContainText('HK$500.00');
    await expect(main).toContainText('twelve months');
    await expect(main).toContainText('non-exclusive jurisdiction of the courts of Hong Kong');
    await expect(main).toContainText('no seven-day no-reason return');
    await expect(main).toContainText('from 1 hour before the show');
    await main.getByRole('link', { name: '7. Refunds and cancellations' }).click();
    await page.waitForURL(/#refunds$/);
    await main.getByRole('navigation', { name: 'Related documents' }).getByRole('link', { name: 'Transfer agreement' }).click();
    await page.waitForURL(/\/en\/transferAgreement$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Transfer agreement' })).toBeVisible();
  });

  test('the translated terms say English prevails and link to the English text', async ({ page }) => {
    await page.goto('/zh-HK/userAgreement');
    const main = page.getByRole('main');
    await expect(main).toContainText('最後更新：2024年7月16日');
    await expect(main).toContainText('概以英文版本為準');
    await main.getByRole('link', { name: '閱讀英文版本' }).click();
    await page.waitForURL(/\/en\/userAgreement$/);
    await expect(page.getByRole('heading', { level: 1, name: 'User agreement' })).toBeVisible();
  });

  test('the privacy policy and the transfer agreement have real content in Simplified Chinese', async ({ page }) => {
    await page.goto('/zh-CN/privacy');
    await expect(page.getByRole('heading', { level: 1, name: '隐私政策' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: '4. Cookie 及本地存储' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('以英文版本为准');
    await page.goto('/zh-CN/transferAgreement');
    await expect(page.getByRole('heading', { level: 1, name: '转让协议' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText('最高 1:1 赔偿');
  });
});

test.describe('app info page', () => {
  test('speaks the language of ?language=, else English', async ({ page }) => {
    await page.goto('/appInfo.html?language=zh-HK');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-HK');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('下載 TicketWing 應用程式');
    await expect(page.getByRole('link', { name: '繼續使用網站' })).toHaveAttribute('href', '/zh-HK/');
    await page.goto('/appInfo.html?language=zh_CN');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('下载 TicketWing 应用');
    await page.goto('/appInfo.html?language=en');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Get the TicketWing app');
    await expect(page.getByRole('link', { name: /Download on the App Store/ })).toHaveAttribute('target', '_blank');
  });
});
