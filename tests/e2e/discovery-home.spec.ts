/**
 * The rest of the home page on a phone: the app-download banner, the recent shows of the next
 * days, the HOME pop-up boxes, and a first load that neither shifts nor downloads React.
 */
import { expect, test } from '@playwright/test';

test.describe('app-download banner', () => {
  test('links to the app page in the page language and hides until the end of the day when closed', async ({ page, context }) => {
    await page.goto('/zh-HK/');
    const banner = page.getByRole('complementary', { name: '下載 TicketWing 應用程式' });
    await expect(banner.getByRole('link', { name: '下載應用程式' })).toHaveAttribute('href', '/appInfo.html?language=zh-HK');
    await banner.getByRole('button', { name: '關閉應用程式橫額' }).click();
    await expect(banner).toHaveCount(0);

    const cookie = (await context.cookies()).find((c) => c.name === 'hideAppInfo');
    expect(cookie?.value).toBe('1');
    const endOfDay = await page.evaluate(() => {
      const now = new Date();
      return new Date(now.getFullYear(), now.getMonth(), now.getDate(), 23, 59, 59).getTime() / 1000;
    });
    expect(Math.abs(cookie!.expires - endOfDay)).toBeLessThanOrEqual(1);

    await page.reload();
    await expect(page.getByRole('heading', { name: '熱門活動' })).toBeVisible();
    await expect(page.getByRole('complementary', { name: '下載 TicketWing 應用程式' })).toHaveCount(0);
  });

  test('is on the home page only', async ({ page }) => {
    await page.goto('/en/about');
    await expect(page.getByRole('main')).toBeVisible();
    await expect(page.getByRole('complementary', { name: 'Get the TicketWing app' })).toHaveCount(0);
  });
});

test.describe('recent shows', () => {
  test('lists the next days of the current city with links to each day', async ({ page }) => {
    await page.goto('/en/');
    const section = page.getByRole('region', { name: 'Recent shows' });
    await expect(section).toContainText('Shows in Hong Kong over the next 15 days');
    const days = section.getByRole('listitem').getByRole('link');
    expect(await days.count()).toBeGreaterThan(0);
    const href = (await days.first().getAttribute('href'))!;
    const url = new URL(href, 'http://x');
    expect(url.pathname).toBe('/en/all');
    expect(url.searchParams.get('city')).toBe('341');
    expect(url.searchParams.get('from')).toBe(url.searchParams.get('to'));
    await expect(days.first()).toHaveText(/\d+ events?$/);
    await expect(section.getByRole('article').first()).toContainText(/HK\$[\d,.]+\+/);
    await expect(section.getByRole('link', { name: 'See all shows' })).toHaveAttribute(
      'href',
      /^\/en\/all\?city=341&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}$/,
    );
  });
});

test.describe('pop-up boxes', () => {
  test('shows the HOME boxes over the page and hides them for the day once closed', async ({ page }) => {
    await page.goto('/en/');
    const boxes = page.getByRole('dialog', { name: 'Offers for you' });
    await expect(boxes).toBeVisible();
    await expect(boxes).toContainText('Welcome gift: HK$100 off');
    await expect(boxes.getByRole('link', { name: /^View offer: / }).first()).toHaveAttribute('href', '/en/couponList');
    await boxes.getByRole('button', { name: 'Close offers' }).click();
    await expect(boxes).toBeHidden();
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Hot activities' })).toBeVisible();
    await expect(page.getByRole('dialog', { name: 'Offers for you' })).toHaveCount(0);
  });

  test('speaks the page language', async ({ page }) => {
    await page.goto('/zh-CN/');
    await expect(page.getByRole('dialog', { name: '为你推荐的优惠' })).toContainText('新人礼遇');
  });

  test("writes the offers' amounts in the chosen currency", async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: 'currencyCode', value: 'TWD', url: baseURL! }]);
    // zh-HK writes New Taiwan dollars as NT$ (zh-TW as $).
    await page.goto('/zh-HK/');
    const boxes = page.getByRole('dialog', { name: '為你推薦的優惠' });
    // HK$100 off over HK$500, at the seeded 4.1 TWD per HKD; "about", as checkout converts at the rate of its day.
    await expect(boxes).toContainText('新人禮遇：立減約NT$410');
    await expect(boxes).toContainText('首張訂單滿約NT$2,050即減約NT$410');
    await expect(boxes).not.toContainText('HK$');
  });
});

test.describe('first load', () => {
  test('does not shift the layout, and loads the header popups and React only when one opens', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.addInitScript(() => {
      (window as unknown as { shift: number }).shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) (window as unknown as { shift: number }).shift += entry.value;
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/en/', { waitUntil: 'networkidle' });
    expect(await page.evaluate(() => (window as unknown as { shift: number }).shift)).toBeLessThan(0.01);
    // The page fetches no script at all before a popup opens: its own is inline, and the popups'
    // islands load with the lists they offer.
    expect(scripts).toEqual([]);

    await page
      .getByRole('banner')
      .getByRole('button', { name: /Change city/ })
      .click();
    await expect(page.getByRole('searchbox', { name: 'Search for a city' })).toBeEnabled();
    expect(scripts.some((url) => url.includes('DialogLists'))).toBe(true);
  });
});
