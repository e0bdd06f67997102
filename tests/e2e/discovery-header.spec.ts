/**
 * The header on a phone: the city picker (autocomplete, hot cities, "use my location" and its
 * failures), the language and currency popup (prices follow the choice), and the hot search word.
 */
import { expect, test, type Page } from '@playwright/test';

const cityButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: /Change city|切換城市|切换城市/ });
const firstPrice = (page: Page) => page.getByRole('main').getByRole('article').first().locator('strong');

async function openCityPicker(page: Page, title: string) {
  await cityButton(page).click();
  const picker = page.getByRole('dialog', { name: title });
  await expect(picker).toBeVisible();
  return picker;
}

test.describe('city picker', () => {
  test('changes the city by typing part of its name (English)', async ({ page, context }) => {
    await page.goto('/en/');
    await expect(cityButton(page)).toHaveText('Hong Kong');
    const picker = await openCityPicker(page, 'Choose a city');
    await picker.getByRole('searchbox', { name: 'Search for a city' }).fill('mac');
    const results = picker.getByRole('region', { name: 'Matching cities' });
    const reloaded = page.waitForEvent('load');
    await results.getByRole('button', { name: 'Macao' }).click();
    await reloaded;

    await expect(cityButton(page)).toHaveText('Macao');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Events in Macao');
    await expect(page.getByRole('heading', { name: 'Recent shows' })).toBeVisible();
    expect((await context.cookies()).find((cookie) => cookie.name === 'cityId')?.value).toBe('342');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('currentCity') ?? 'null'))).toEqual({
      cityId: 342,
      cityName: 'Macao',
    });
  });

  test('lists a country’s cities, and says so when nothing matches', async ({ page }) => {
    await page.goto('/en/');
    const picker = await openCityPicker(page, 'Choose a city');
    const search = picker.getByRole('searchbox', { name: 'Search for a city' });
    await search.fill('Taiwan');
    const results = picker.getByRole('region', { name: 'Matching cities' });
    await expect(results.getByRole('button')).toHaveText(['Taipei', 'Kaohsiung', 'Taichung']);
    await search.fill('Atlantis');
    await expect(results).toContainText('No city results');
    await expect(results).toContainText('Try a country or other region');
    await search.fill('');
    await expect(picker.getByRole('region', { name: 'Hot cities' })).toBeVisible();
    await picker.getByRole('button', { name: 'Close' }).click();
    await expect(picker).toBeHidden();
  });

  test('changes the city from the hot cities (Traditional Chinese), marking the current one', async ({ page }) => {
    await page.goto('/zh-HK/');
    const picker = await openCityPicker(page, '選擇城市');
    const hot = picker.getByRole('region', { name: '熱門城市' });
    await expect(hot.getByRole('button', { name: '香港' })).toHaveAttribute('aria-current', 'true');
    await expect(picker.getByRole('region', { name: '所有城市' }).getByRole('heading', { name: 'T' })).toBeVisible();
    const reloaded = page.waitForEvent('load');
    await hot.getByRole('button', { name: '台北' }).click();
    await reloaded;
    await expect(cityButton(page)).toHaveText('台北');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/台北/);
    await page.waitForURL(/\/zh-HK\/$/);
  });
});

test.describe('use my location, allowed', () => {
  test.use({ geolocation: { latitude: 1.29, longitude: 103.85 }, permissions: ['geolocation'] });

  test('moves to the nearest city', async ({ page }) => {
    await page.goto('/en/');
    const picker = await openCityPicker(page, 'Choose a city');
    // Locating asks the browser, then the nearest city, saves it and reloads the page: a
    // navigation, awaited for as long as the test may run rather than an assertion's 5 s.
    const reloaded = page.waitForEvent('load');
    await picker.getByRole('button', { name: 'Use my location' }).click();
    await reloaded;
    await expect(cityButton(page)).toHaveText('Singapore');
    expect(await page.evaluate(() => localStorage.getItem('authorizedPosition'))).toBe('true');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('locationCity') ?? 'null'))).toEqual({
      cityId: 350,
      cityName: 'Singapore',
    });
    // The located city is offered again in the picker.
    const again = await openCityPicker(page, 'Choose a city');
    await expect(again.getByRole('region', { name: 'Your location' }).getByRole('button', { name: 'Singapore' })).toBeVisible();
  });
});

test.describe('use my location, refused', () => {
  test('explains the refusal with a Setting button (Simplified Chinese)', async ({ page, context }) => {
    await context.clearPermissions();
    await page.goto('/zh-CN/');
    const picker = await openCityPicker(page, '选择城市');
    await picker.getByRole('button', { name: '使用我的位置' }).click();
    const prompt = picker.getByRole('alertdialog', { name: '你已拒绝定位请求' });
    await expect(prompt).toBeVisible();
    await expect(prompt.getByRole('button', { name: '设置' })).toBeVisible();
    await prompt.getByRole('button', { name: '取消' }).click();
    await expect(prompt).toBeHidden();
    await expect(cityButton(page)).toHaveText('香港');
  });
});

test.describe('language and currency', () => {
  test('switches English/HKD to Traditional Chinese/TWD and prices follow', async ({ page, context }) => {
    await page.goto('/en/');
    await expect(firstPrice(page)).toHaveText(/^HK\$[\d,.]+\+$/);
    await page.getByRole('banner').getByRole('button', { name: 'Language and currency: HKD' }).click();
    const popup = page.getByRole('dialog', { name: 'Language and currency' });
    await expect(popup.getByRole('radio', { name: 'English' })).toBeChecked();
    await expect(popup.getByRole('radio', { name: 'HKD - Hong Kong Dollar' })).toBeChecked();
    await popup.getByRole('radio', { name: '繁體中文(香港)' }).check();
    await popup.getByRole('radio', { name: 'TWD - New Taiwan Dollar' }).check();
    await popup.getByRole('button', { name: 'Confirm' }).click();

    // Confirming saves both choices on the server, then loads the page in the new language: a
    // navigation, awaited for as long as the test may run rather than an assertion's 5 s.
    await page.waitForURL(/\/zh-HK\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-HK');
    await expect(page.getByRole('heading', { name: '熱門活動' })).toBeVisible();
    await expect(firstPrice(page)).toHaveText(/^NT\$[\d,]+\+$/);
    await expect(page.getByRole('banner').getByRole('button', { name: '語言及貨幣：TWD' })).toBeVisible();
    // The currencies are named in the page's language.
    await page.getByRole('banner').getByRole('button', { name: '語言及貨幣：TWD' }).click();
    const chinesePopup = page.getByRole('dialog', { name: '語言及貨幣' });
    await expect(chinesePopup.getByRole('radio', { name: 'TWD - 新台幣' })).toBeChecked();
    await expect(chinesePopup.getByRole('radio', { name: 'CNY - 人民幣' })).toBeVisible();
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === 'currencyCode')?.value).toBe('TWD');
    expect(cookies.find((cookie) => cookie.name === 'language')?.value).toBe('zh-HK');
    expect(await page.evaluate(() => [localStorage.getItem('currencyCode'), localStorage.getItem('language')])).toEqual(['TWD', 'zh-HK']);
  });

  test('switches Simplified Chinese to English/USD, forgetting the location city', async ({ page }) => {
    // On a page other than home, which would look the location city up again on arrival.
    await page.goto('/zh-CN/about');
    await page.evaluate(() => localStorage.setItem('locationCity', JSON.stringify({ cityId: 342, cityName: '澳门' })));
    await page
      .getByRole('banner')
      .getByRole('button', { name: /^语言和货币/ })
      .click();
    const popup = page.getByRole('dialog', { name: '语言和货币' });
    await popup.getByRole('radio', { name: 'English' }).check();
    // Named in the page's language, Simplified Chinese.
    await popup.getByRole('radio', { name: 'USD - 美元' }).check();
    await popup.getByRole('button', { name: '确认' }).click();

    await page.waitForURL(/\/en\/about$/);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Language and currency: USD' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('locationCity'))).toBeNull();
    await page.goto('/en/');
    await expect(firstPrice(page)).toHaveText(/^US\$[\d,.]+\+$/);
  });

  test('keeps the language and re-renders prices when only the currency changes', async ({ page }) => {
    await page.goto('/en/');
    await page.getByRole('banner').getByRole('button', { name: 'Language and currency: HKD' }).click();
    const popup = page.getByRole('dialog', { name: 'Language and currency' });
    await popup.getByRole('radio', { name: 'SGD - Singapore Dollar' }).check();
    // The same page loads again, once the choice is saved: wait for that load, not 5 s.
    const reloaded = page.waitForEvent('load');
    await popup.getByRole('button', { name: 'Confirm' }).click();
    await reloaded;
    await page.waitForURL(/\/en\/$/);
    await expect(page.getByRole('banner').getByRole('button', { name: 'Language and currency: SGD' })).toBeVisible();
    await expect(firstPrice(page)).toHaveText(/^SGD\s?[\d,.]+\+$|^S\$[\d,.]+\+$/);
  });
});

test.describe('hot search words', () => {
  /** The word a finger lands on at the middle of the search box: the one on show (the others wait below it, clipped). */
  async function wordOnShow(page: Page, name: RegExp) {
    const box = (await page.getByRole('banner').getByRole('link', { name }).first().locator('xpath=..').boundingBox())!;
    const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    const text = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('a')?.textContent?.trim() ?? null, middle);
    return { text, middle };
  }

  test('a tap opens search seeded with the word on show', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/en/');
    const words = page.getByRole('banner').getByRole('link', { name: /^Search: / });
    await expect(words.first()).toBeAttached();
    const { text, middle } = await wordOnShow(page, /^Search: /);
    expect(text).toBe((await words.first().textContent())!.trim());
    await page.mouse.click(middle.x, middle.y);
    await page.waitForURL((url) => url.pathname === '/en/s_' && url.searchParams.get('placeholder') === text);
  });

  test('rotates to the next word', async ({ page }) => {
    await page.goto('/zh-HK/');
    const shown = async () => (await wordOnShow(page, /^搜尋：/)).text;
    const first = await shown();
    expect(first).not.toBeNull();
    await expect.poll(shown, { timeout: 5_000 }).not.toBe(first);
  });
});
