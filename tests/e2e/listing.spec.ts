import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SUGGESTION_DELAY_MS } from '../../src/lib/config/browse.ts';
import type { ListResponse } from '../../src/lib/services/catalogue/listing.ts';
import { BASE_URL, hydrated } from './shop-helpers.ts';

const TAIPEI = 343;

/** What the list API answers for a listing URL: the ids of its first page and its total. */
async function listed(request: APIRequestContext, listing: string): Promise<{ ids: string[]; total: number }> {
  const response = await request.get(`/api/v1/list${listing}`, { headers: { language: 'en' } });
  const { data } = (await response.json()) as { data: ListResponse };
  return { ids: data.result.map((card) => `/en/activity/${card.id}`), total: data.total };
}

/** The activity links of the cards the page shows. */
const cardLinks = (page: Page) =>
  page
    .getByRole('main')
    .getByRole('article')
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')));

test.describe('lists follow the current city', () => {
  test('with Taipei chosen in the header, /concerts lists only Taipei’s shows and says so; All cities is one tap away', async ({
    page,
    request,
  }) => {
    await page.goto('/en/concerts');
    await expect(page.getByText('Showing events in Hong Kong')).toBeVisible();
    await page
      .getByRole('banner')
      .getByRole('button', { name: /Change city/ })
      .click();
    const picker = page.getByRole('dialog', { name: 'Choose a city' });
    const reloaded = page.waitForEvent('load');
    await picker.getByRole('region', { name: 'Hot cities' }).getByRole('button', { name: 'Taipei' }).click();
    await reloaded;

    await expect(page).toHaveURL(/\/en\/concerts$/);
    await expect(page.getByText('Showing events in Taipei')).toBeVisible();
    const taipei = await listed(request, `/concerts?city=${TAIPEI}`);
    const everywhere = await listed(request, '/concerts?city=all');
    expect(taipei.total).toBeGreaterThan(0);
    expect(everywhere.total).toBeGreaterThan(taipei.total);
    await expect(page.getByRole('heading', { level: 2, name: `${taipei.total} events` })).toBeVisible();
    expect(await cardLinks(page)).toEqual(taipei.ids);
    const filters = page.getByRole('navigation', { name: 'Filters' });
    await expect(filters.locator('summary').filter({ hasText: 'City' })).toContainText('Taipei');

    // Other filters keep following the current city.
    await filters.getByText('Sort', { exact: true }).click();
    await filters.getByRole('link', { name: 'Popular' }).click();
    await page.waitForURL(/\/en\/concerts\?sort=hot$/);
    await expect(page.getByText('Showing events in Taipei')).toBeVisible();

    await page.getByRole('link', { name: 'All cities' }).click();
    await page.waitForURL(/\/en\/concerts\?city=all&sort=hot$/);
    await expect(page.getByText('Showing events in all cities')).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: `${everywhere.total} events` })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Filters' }).locator('summary').filter({ hasText: 'City' })).toContainText(
      'All cities',
    );

    await page.getByRole('link', { name: 'Only Taipei' }).click();
    await page.waitForURL(/\/en\/concerts\?sort=hot$/);
    await expect(page.getByRole('heading', { level: 2, name: `${taipei.total} events` })).toBeVisible();
  });

  test('the search follows the current city too, in Traditional Chinese, and its next pages stay in that city', async ({
    page,
    context,
  }) => {
    await context.addCookies([{ name: 'cityId', value: String(TAIPEI), url: BASE_URL }]);
    await page.goto('/zh-HK/s_tour');
    await expect(page.getByText('正在顯示台北的活動')).toBeVisible();
    const loaded = page.waitForResponse((response) => response.url().includes('/api/v1/list/s_tour'));
    await page.getByRole('link', { name: '全部城市' }).click();
    await page.waitForURL(/\/zh-HK\/s_tour\?city=all$/);
    await expect(page.getByText('正在顯示全部城市的活動')).toBeVisible();
    await expect(page.getByRole('link', { name: '只看台北' })).toBeVisible();
    // The feed's calls name the city the page shows.
    await hydrated(page, 'ListingFeed');
    await page.getByRole('link', { name: '更多活動' }).scrollIntoViewIfNeeded();
    expect(new URL((await loaded).url()).searchParams.get('city')).toBe('all');
  });

  test('each city’s visitors get their own list from the edge cache', async ({ browser }) => {
    for (const [cityId, name] of [
      [TAIPEI, 'Taipei'],
      [341, 'Hong Kong'],
      [TAIPEI, 'Taipei'],
    ] as const) {
      const context = await browser.newContext();
      await context.addCookies([{ name: 'cityId', value: String(cityId), url: BASE_URL }]);
      const page = await context.newPage();
      await page.goto('/en/sports?sort=price');
      await expect(page.getByText(`Showing events in ${name}`)).toBeVisible();
      // Served from the cache (a catalogue write elsewhere may make one reload render afresh), still of its city.
      await expect
        .poll(async () => (await page.reload())?.headers()['x-page-cache'], { message: 'served from the edge cache' })
        .toMatch(/^(hit|stale)$/);
      await expect(page.getByText(`Showing events in ${name}`)).toBeVisible();
      await context.close();
    }
  });
});

test.describe('near me', () => {
  test.use({ geolocation: { latitude: 25.04, longitude: 121.53 }, permissions: ['geolocation'] });

  test('lists the shows of the city nearest to the browser position', async ({ page }) => {
    await page.goto('/en/concerts?sort=price');
    await expect(page.getByText('Showing events in Hong Kong')).toBeVisible();
    const filters = page.getByRole('navigation', { name: 'Filters' });
    await filters.getByText('City', { exact: true }).click();
    const nearMe = filters.getByRole('button', { name: 'Near me' });
    await expect(nearMe).toBeEnabled();
    await nearMe.click();
    await page.waitForURL(new RegExp(`/en/concerts\\?sort=price&city=${TAIPEI}$`));
    await expect(page.getByText('Showing events in Taipei')).toBeVisible();
  });
});

test.describe('near me, location refused', () => {
  test.use({ permissions: [] });

  test('says the request was rejected and offers Setting to try again', async ({ page }) => {
    await page.goto('/zh-HK/concerts');
    const filters = page.getByRole('navigation', { name: '篩選' });
    await filters.getByText('城市', { exact: true }).click();
    const nearMe = filters.getByRole('button', { name: '我附近' });
    await expect(nearMe).toBeEnabled();
    await nearMe.click();
    const prompt = page.getByRole('alertdialog', { name: '你已拒絕定位請求' });
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole('button', { name: '設定' })).toBeVisible();
    await expect(page).toHaveURL(/\/zh-HK\/concerts$/);
  });
});

test.describe('category list', () => {
  test('home → category → detail, in English', async ({ page }) => {
    await page.goto('/en/');
    await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Concerts' }).click();
    await page.waitForURL(/\/en\/concerts$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Concerts' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /^\d+ events$/ })).toBeVisible();
    const first = page.getByRole('main').getByRole('article').first();
    await expect(first).toContainText(/HK\$[\d,.]+\+/);
    const link = first.getByRole('link');
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/en\/activity\/\d+$/);
    await link.click();
    await page.waitForURL(new RegExp(`${href}$`));
  });

  test('home → category → detail, in Traditional Chinese', async ({ page }) => {
    await page.goto('/zh-HK/');
    await page.getByRole('navigation', { name: '分類' }).getByRole('link', { name: '演唱會' }).click();
    await page.waitForURL(/\/zh-HK\/concerts$/);
    await expect(page.getByRole('heading', { level: 1, name: '演唱會' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: /^共 \d+ 個活動$/ })).toBeVisible();
    const link = page.getByRole('main').getByRole('article').first().getByRole('link');
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/zh-HK\/activity\/\d+$/);
    await link.click();
    await page.waitForURL(new RegExp(`${href}$`));
  });

  test('keeps city, sort and dates in the URL', async ({ page }) => {
    await page.goto('/en/concerts');
    const filters = page.getByRole('navigation', { name: 'Filters' });
    await filters.getByText('City', { exact: true }).click();
    await filters.getByRole('link', { name: 'Taipei' }).click();
    await page.waitForURL(/\/en\/concerts\?city=343$/);
    await expect(page.getByRole('main').getByRole('article').first()).toContainText(/Taipei/);

    await page.getByRole('navigation', { name: 'Filters' }).getByText('Sort', { exact: true }).click();
    await page.getByRole('link', { name: 'Lowest price' }).click();
    await page.waitForURL(/\/en\/concerts\?city=343&sort=price$/);
    // The closed Sort disclosure names the chosen sort; opened, it marks it as current.
    const sortFilter = page.getByRole('navigation', { name: 'Filters' }).getByText('Sort', { exact: true });
    await expect(page.getByRole('navigation', { name: 'Filters' }).locator('summary').filter({ hasText: 'Sort' })).toContainText(
      'Lowest price',
    );
    await sortFilter.click();
    await expect(page.getByRole('link', { name: 'Lowest price' })).toHaveAttribute('aria-current', 'true');
    await sortFilter.click();

    await page.getByRole('navigation', { name: 'Filters' }).getByText('Date', { exact: true }).click();
    const today = new Date();
    const from = today.toISOString().slice(0, 10);
    const to = new Date(today.getTime() + 60 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    await page.getByLabel('From').fill(from);
    await page.getByLabel('To').fill(to);
    await page.getByRole('button', { name: 'Apply dates' }).click();
    await page.waitForURL(new RegExp(`/en/concerts\\?city=343&sort=price&from=${from}&to=${to}$`));
    await expect(page.getByRole('heading', { level: 2, name: /^\d+ events$|^No events$/ })).toBeVisible();
  });

  test('loads the next page as the list scrolls, without repeating a card', async ({ page }) => {
    await page.goto('/en/all');
    const cards = page.getByRole('main').getByRole('article');
    await expect(cards).toHaveCount(20);
    await hydrated(page, 'ListingFeed');
    await page.getByRole('link', { name: 'More events' }).scrollIntoViewIfNeeded();
    await expect(cards).toHaveCount(40);
    const hrefs = await cards.getByRole('link').evaluateAll((links) => links.map((link) => link.getAttribute('href')));
    expect(new Set(hrefs).size).toBe(40);
  });

  test('shows the network-error view and a toast when a page fails, and refreshes from it', async ({ page }) => {
    await page.goto('/en/all');
    await hydrated(page, 'ListingFeed');
    await page.route('**/api/v1/list/**', (route) => route.abort());
    await page.getByRole('link', { name: 'More events' }).scrollIntoViewIfNeeded();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('Your network is not working properly');
    await expect(page.getByRole('status').filter({ hasText: 'Your network is not working properly' })).toBeVisible();
    await page.unroute('**/api/v1/list/**');
    await alert.getByRole('button', { name: 'Refresh' }).click();
    await expect(page.getByRole('main').getByRole('article')).toHaveCount(40);
  });

  test('pull-to-refresh reloads the list and closes', async ({ page }) => {
    await page.goto('/en/all');
    await hydrated(page, 'ListingFeed');
    const indicator = page.locator('.feed-pull');
    // Record what the indicator says, and when, to see it close PULL_TO_REFRESH_CLOSE_MS after the refresh.
    await indicator.evaluate((element) => {
      const seen: { text: string; at: number }[] = [];
      Object.assign(window, { pullTexts: seen });
      new MutationObserver(() => seen.push({ text: element.textContent ?? '', at: performance.now() })).observe(element, {
        childList: true,
        subtree: true,
        characterData: true,
      });
    });
    const refreshed = page.waitForResponse((response) => response.url().includes('/api/v1/list/all'));
    await page.evaluate(() => {
      const touch = (y: number) => new Touch({ identifier: 1, target: document.body, clientX: 200, clientY: y });
      window.dispatchEvent(new TouchEvent('touchstart', { touches: [touch(100)] }));
      window.dispatchEvent(new TouchEvent('touchmove', { touches: [touch(300)] }));
      window.dispatchEvent(new TouchEvent('touchend', { touches: [] }));
    });
    expect((await refreshed).status()).toBe(200);
    await expect(indicator).toHaveText('');
    await expect(indicator).toHaveCSS('height', '0px');
    const seen = await page.evaluate(() => (window as unknown as { pullTexts: { text: string; at: number }[] }).pullTexts);
    const texts = seen.map((entry) => entry.text);
    expect(texts).toContain('Refreshing…');
    const updated = seen.findIndex((entry) => entry.text === 'Updated');
    expect(updated).toBeGreaterThan(texts.indexOf('Refreshing…'));
    const closedAfter = seen[updated + 1].at - seen[updated].at;
    expect(closedAfter).toBeGreaterThanOrEqual(290);
    expect(closedAfter).toBeLessThan(1000);
    await expect(page.getByRole('main').getByRole('article')).toHaveCount(20);
  });

  test('answers bad input with the 404 page or a clear empty state, never an error', async ({ page }) => {
    const unknown = await page.goto('/en/no-such-category');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();

    const backwards = await page.goto('/en/all?from=2027-01-31&to=2027-01-01');
    expect(backwards?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'These filters cannot be used' })).toBeVisible();
    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page.waitForURL(/\/en\/all$/);

    const far = await page.goto('/zh-CN/concerts?from=9999-01-01');
    expect(far?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: '无法使用这些筛选条件' })).toBeVisible();

    const past = await page.goto('/en/concerts?page=999');
    expect(past?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: /There are no more events after page \d+/ })).toBeVisible();
    await page.getByRole('link', { name: 'Go to the first page' }).click();
    await page.waitForURL(/\/en\/concerts$/);

    const garbled = await page.goto('/en/s_%E0%A4%A');
    expect(garbled?.status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'These filters cannot be used' })).toBeVisible();
  });
});

test.describe('search', () => {
  test('suggests while typing, searches, and keeps a recent-search history', async ({ page }) => {
    await page.clock.install();
    await page.goto('/en/s_');
    await hydrated(page, 'SearchBox');
    const box = page.getByRole('searchbox', { name: 'Search events, artists and venues' });
    await expect(box).toBeFocused();
    const suggestCalls: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/activities/suggest')) suggestCalls.push(new URL(request.url()).searchParams.get('input') ?? '');
    });
    // Typing without a pause asks once, for the whole word. The page's clock stands still while the
    // keys arrive, so "without a pause" holds however slowly a busy machine delivers them. (Pausing
    // needs a moment ahead of the page's running clock; a minute is ahead however busy the machine.)
    await page.clock.pauseAt(await page.evaluate(() => Date.now() + 60_000));
    await box.pressSequentially('kelvin');
    expect(suggestCalls).toEqual([]);
    await page.clock.runFor(SUGGESTION_DELAY_MS);
    await page.clock.resume();
    const suggestions = page.getByRole('list', { name: 'Suggestions' });
    await expect(suggestions.getByRole('link').first()).toContainText('Kelvin Lau');
    expect(suggestCalls).toEqual(['kelvin']);

    await box.press('Enter');
    await page.waitForURL(/\/en\/s_kelvin$/);
    await expect(page.getByRole('heading', { name: /^\d+ results for “kelvin”$/ })).toBeVisible();
    await expect(page.getByRole('main').getByRole('article').first()).toContainText('Kelvin Lau');

    await page.goto('/en/s_');
    await hydrated(page, 'SearchBox');
    await page.getByRole('searchbox').fill('Taipei Arena');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/\/en\/s_Taipei%20Arena$/);

    await page.goto('/en/s_');
    const recent = page.getByRole('region', { name: 'Recent searches' });
    await expect(recent.getByRole('link')).toHaveText(['Taipei Arena', 'kelvin']);
    await recent.getByRole('link', { name: 'kelvin' }).click();
    await page.waitForURL(/\/en\/s_kelvin$/);
    await page.goto('/en/s_');
    await expect(recent.getByRole('link')).toHaveText(['kelvin', 'Taipei Arena']);

    await recent.getByRole('button', { name: 'Clear search history' }).click();
    const dialog = page.getByRole('dialog', { name: 'Clear all recent searches?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(recent.getByRole('link')).toHaveCount(2);
    await recent.getByRole('button', { name: 'Clear search history' }).click();
    await dialog.getByRole('button', { name: 'Clear' }).click();
    await expect(recent).toHaveCount(0);
    expect(await page.evaluate(() => localStorage.getItem('searchRecordList'))).toBeNull();
  });

  test('opens an activity from a suggestion and remembers what was typed', async ({ page }) => {
    await page.goto('/en/s_');
    await hydrated(page, 'SearchBox');
    await page.getByRole('searchbox').fill('coliseum');
    const suggestion = page.getByRole('list', { name: 'Suggestions' }).getByRole('link').first();
    await expect(suggestion).toContainText('Coliseum');
    await suggestion.click();
    await page.waitForURL(/\/en\/activity\/\d+$/);
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('searchRecordList') ?? '[]'));
    expect(stored).toEqual([{ value: 'coliseum', expiry: expect.any(Number) }]);
  });

  test('finds the same shows by the Simplified and the Traditional spelling, in Simplified Chinese', async ({ page }) => {
    await page.goto('/zh-CN/s_');
    await hydrated(page, 'SearchBox');
    const box = page.getByRole('searchbox', { name: '搜索活动、艺人及场馆' });
    await box.fill('刘嘉朗');
    await expect(page.getByRole('list', { name: '搜索建议' }).getByRole('link').first()).toContainText('刘嘉朗');
    await box.press('Enter');
    await page.waitForURL(/\/zh-CN\/s_%E5%88%98%E5%98%89%E6%9C%97$/);
    const simplified = (await page.getByRole('main').getByRole('article').allTextContents()).sort();
    expect(simplified.length).toBeGreaterThan(0);
    await expect(page.getByRole('heading', { name: `“刘嘉朗”共 ${simplified.length} 个结果` })).toBeVisible();

    await page.goto('/zh-CN/s_劉嘉朗');
    expect((await page.getByRole('main').getByRole('article').allTextContents()).sort()).toEqual(simplified);
    await page.goto('/zh-CN/s_');
    await expect(page.getByRole('region', { name: '最近搜索' }).getByRole('link')).toHaveText(['刘嘉朗']);
  });

  test('searches the hot word of an empty box, and an empty box without one does nothing', async ({ page }) => {
    await page.goto('/en/s_?placeholder=Kelvin%20Lau');
    await hydrated(page, 'SearchBox');
    const box = page.getByRole('searchbox');
    await expect(box).toHaveAttribute('placeholder', 'Kelvin Lau');
    await box.fill('   ');
    await box.press('Enter');
    await page.waitForURL(/\/en\/s_Kelvin%20Lau\?placeholder=Kelvin(%20|\+)Lau$/);
    await expect(page.getByRole('main').getByRole('article').first()).toContainText('Kelvin Lau');

    await page.goto('/en/s_');
    await hydrated(page, 'SearchBox');
    await page.getByRole('searchbox').fill('  ');
    await page.getByRole('searchbox').press('Enter');
    await page.waitForURL(/\/en\/s_$/);
    await expect(page.getByRole('main').getByRole('article')).toHaveCount(0);
  });

  test('shows typed markup as text, in the results and the history', async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs += 1;
      void dialog.dismiss();
    });
    await page.goto('/en/s_');
    await hydrated(page, 'SearchBox');
    const markup = '<img src=x onerror=alert(1)>';
    await page.getByRole('searchbox').fill(markup);
    await page.getByRole('searchbox').press('Enter');
    await expect(page.getByRole('heading', { name: `No events match “${markup}”` })).toBeVisible();
    await page.goto('/en/s_');
    await expect(page.getByRole('region', { name: 'Recent searches' }).getByRole('link')).toHaveText([markup]);
    await expect(page.locator('img[src="x"]')).toHaveCount(0);
    expect(dialogs).toBe(0);
  });

  test('works without JavaScript: the form search is redirected to the search path', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/en/s_');
    await page.getByRole('searchbox').fill('  Kelvin  ');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.waitForURL(/\/en\/s_Kelvin$/);
    await expect(page.getByRole('main').getByRole('article').first()).toContainText('Kelvin Lau');
    await context.close();
  });
});
