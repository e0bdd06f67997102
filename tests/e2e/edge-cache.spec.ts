/**
 * The edge cache of shared pages (src/lib/edge/shared-page-cache.ts): anonymous browse pages come
 * from the cache per language, currency and city; a signed-in visitor's page never enters it, and no
 * cookie read one way for the key and another for the page stores a page under another choice; a price
 * change shows once the worker reads the catalogue version again (at most CATALOGUE_VERSION_REUSE_MS). It changes listing prices, so it runs after the other specs
 * (its own Playwright project, which depends on the others: alone, run it with `--no-deps`) and
 * puts them back.
 */
import { expect, test, type Browser, type BrowserContext, type Page, type Response } from '@playwright/test';
import { e2eStateDir } from '../../scripts/local-db.ts';
import { PAGE_TYPES } from '../../scripts/quality/pages.ts';
import { pathOf, signedInSession } from '../../scripts/quality/session.ts';
import { ROUTES, type RouteName } from '../../src/lib/routes.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';
import { BASE_URL, localeOf } from './shop-helpers.ts';

const en = localeOf('en');
// One after the other: the first changes the prices the second reads.
test.describe.configure({ mode: 'serial', timeout: 180_000 });
const cacheState = (response: Response | null) => response?.headers()['x-page-cache'];

interface Place {
  cityId: number;
  cityName: string;
  currency: string;
}

/** A browser context whose preference cookies say this city and currency, as the header's pickers set them. */
async function visitorIn(browser: Browser, place: Place): Promise<BrowserContext> {
  const context = await browser.newContext();
  await context.addCookies([
    { name: 'cityId', value: String(place.cityId), url: BASE_URL },
    { name: 'currencyCode', value: place.currency, url: BASE_URL },
  ]);
  return context;
}

/** The activity with the most listings on sale. */
async function activityOnSale(): Promise<number> {
  const found = await fixture('activity-with-most-listings', {});
  return found!.activityId;
}

/** The lowest price the API shows for an activity in a currency: what its page must show. */
async function lowPriceFromApi(context: BrowserContext, activityId: number, currency: string): Promise<string> {
  const response = await context.request.get(`/api/activity/${activityId}`, { headers: { language: 'en', currency } });
  const { data } = (await response.json()) as { data: { lowPriceView: string | null } };
  expect(data.lowPriceView, 'a lowest price').toBeTruthy();
  return data.lowPriceView!;
}

test('a price change shows on the next request after the page was cached', async ({ browser }) => {
  const activityId = await activityOnSale();
  const visitor = await browser.newContext();
  const page = await visitor.newPage();
  const lowPrice = (text: string) => page.getByRole('definition').filter({ hasText: text }).first();

  await page.goto(`/en/activity/${activityId}`);
  const before = await lowPriceFromApi(visitor, activityId, 'HKD');
  await expect(lowPrice(before)).toBeVisible();
  expect(cacheState(await page.reload())).toBe('hit');

  await fixture('scale-activity-prices', { activityId, scale: { times: 3 } });
  try {
    const after = await lowPriceFromApi(visitor, activityId, 'HKD');
    expect(after).not.toBe(before);
    // The worker reads the version at most once per CATALOGUE_VERSION_REUSE_MS: within it the old page may still be served.
    await expect
      .poll(async () => cacheState(await page.reload()), { message: 'rendered afresh for the new catalogue version', timeout: 20_000 })
      .toBe('miss');
    await expect(lowPrice(after)).toBeVisible();
  } finally {
    await fixture('scale-activity-prices', { activityId, scale: { dividedBy: 3 } });
  }
  await visitor.close();
});

test('anonymous pages are shared per city and currency, and no signed-in page is ever cached', async ({ browser }, testInfo) => {
  const cities = await fixture('first-cities', { count: 2 });
  const places: Place[] = [
    { ...cities[0], currency: 'HKD' },
    { ...cities[1], currency: 'SGD' },
  ];
  const activityId = await activityOnSale();

  // Two buyers signed in: their pages are rendered for them alone.
  for (const label of ['cache-a', 'cache-b']) {
    const context = await browser.newContext();
    await ownClientAddress(context, testInfo);
    const { email } = await signUpByEmail(context.request, label);
    const page = await context.newPage();
    for (const path of ['/en/', `/en/activity/${activityId}`, '/en/about']) {
      const response = await page.goto(path);
      expect(cacheState(response), path).toBe('bypass');
      await expect(page.getByLabel(en.say('header.account'))).toBeVisible();
      expect(await page.content()).not.toContain(email);
    }
    await context.close();
  }

  // Two anonymous visitors in two cities and currencies: each gets the pages of their own, from the cache the second time.
  for (const place of places) {
    const visitor = await visitorIn(browser, place);
    const page = await visitor.newPage();
    await page.goto('/en/');
    expect(cacheState(await page.reload())).toBe('hit');
    await expect(page.getByRole('button', { name: en.say('header.city.open', { city: place.cityName }) })).toBeVisible();
    await expect(page.getByRole('button', { name: en.say('header.prefs.open', { currency: place.currency }) })).toBeVisible();
    await expect(page.getByRole('link', { name: en.say('header.login') })).toBeVisible();
    await expect(page.getByLabel(en.say('header.account'))).toHaveCount(0);

    await page.goto(`/en/activity/${activityId}`);
    expect(cacheState(await page.reload())).toBe('hit');
    const lowPrice = await lowPriceFromApi(visitor, activityId, place.currency);
    await expect(page.getByRole('definition').filter({ hasText: lowPrice }).first()).toBeVisible();
    await visitor.close();
  }
});

/** The demo seed's Singapore (its cities are fixed data), a city other than the default's Hong Kong. */
const SINGAPORE = { cityId: 350, cityName: 'Singapore' };
const zhCN = localeOf('zh-CN');
const showsUsd = (page: Page) => expect(page.getByRole('button', { name: en.say('header.prefs.open', { currency: 'USD' }) })).toBeVisible();
const showsSingapore = (page: Page) =>
  expect(page.getByRole('button', { name: en.say('header.city.open', { city: SINGAPORE.cityName }) })).toBeVisible();
const showsChinese = async (page: Page) => {
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await expect(page.getByRole('link', { name: zhCN.say('header.login') })).toBeVisible();
};
const showsAnonymous = async (page: Page) => {
  await expect(page.getByRole('link', { name: en.say('header.login') })).toBeVisible();
  await expect(page.getByLabel(en.say('header.account'))).toHaveCount(0);
};

// An attacker's Cookie header, the path it asks for, then a visitor's choice and what their page must show.
const poisonings: [string, string, Record<string, string>, (page: Page) => Promise<void>][] = [
  ['currencyCode="USD"', '/en/about', { currencyCode: 'USD' }, showsUsd],
  ['currencyCode=US\\; currencyCode=USD', '/en/about', { currencyCode: 'USD' }, showsUsd],
  ['cityId=35\\; cityId=350', '/en/concerts', { cityId: String(SINGAPORE.cityId) }, showsSingapore],
  ['cityId="350"', '/en/concerts', { cityId: String(SINGAPORE.cityId) }, showsSingapore],
  ['language="zh-CN"', '/about', { language: 'zh-CN' }, showsChinese],
  ['language=zh\\; language=zh-CN', '/about', { language: 'zh-CN' }, showsChinese],
  ['pner=x\\y; pnid=1\\', '/en/', {}, showsAnonymous],
];

for (const [index, [cookie, path, choice, shows]] of poisonings.entries()) {
  test(`Cookie: ${cookie} stores no page a visitor with ${JSON.stringify(choice)} then gets`, async ({ browser, playwright }) => {
    // A URL of the case's own, which no earlier visit stored.
    const url = `${path}?poisoned=${index}-${Date.now()}`;
    const attacker = await playwright.request.newContext({ baseURL: BASE_URL });
    expect((await attacker.get(url, { headers: { cookie }, maxRedirects: 0 })).status()).toBe(200);
    await attacker.dispose();
    const visitor = await browser.newContext();
    await visitor.addCookies(Object.entries(choice).map(([name, value]) => ({ name, value, url: BASE_URL })));
    const page = await visitor.newPage();
    await page.goto(url);
    await shows(page);
    await visitor.close();
  });
}

test('every page behind sign-in, and every page a signed-in buyer opens, answers private, no-store', async ({ playwright }) => {
  const { cookie, vars } = await signedInSession(BASE_URL, e2eStateDir(Number(process.env.E2E_PORT) || 8788));
  const varsById = vars as Record<string, number>;
  const buyer = await playwright.request.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { cookie } });
  const anonymous = await playwright.request.newContext({ baseURL: BASE_URL });
  // The ids of the buyer's own orders and of the demo's high-demand session, for the routes that name one.
  const ids: Partial<Record<RouteName, number>> = {
    orderDetailPage: varsById.ticketedOrderId,
    orderTransferPage: varsById.ticketedOrderId,
    orderPayPage: varsById.orderId,
    waitingRoomPage: varsById.waitingRoomSessionId,
  };
  const query: Partial<Record<RouteName, string>> = { orderConfirmPage: `?listingId=${vars.listingId}&quantity=1` };
  const signInPaths = ROUTES.filter((route) => route.auth).map(
    (route) => `/en${route.pattern.replace(':id', String(ids[route.name] ?? 0))}${query[route.name] ?? ''}`,
  );
  expect(signInPaths.length).toBeGreaterThan(10);
  for (const path of signInPaths) {
    for (const [who, client] of [
      ['signed in', buyer],
      ['anonymous', anonymous],
    ] as const) {
      const response = await client.get(path, { maxRedirects: 0 });
      expect(response.status(), `${who} ${path}`).toBeLessThan(500);
      expect(response.headers()['cache-control'], `${who} ${path}`).toBe('private, no-store');
    }
  }
  for (const path of PAGE_TYPES.map((pageType) => pathOf(pageType, 'en', vars))) {
    const response = await buyer.get(path, { maxRedirects: 0 });
    // The login page sends a signed-in visitor on.
    if (response.status() >= 300 && response.status() < 400) continue;
    expect(response.headers()['content-type'], path).toMatch(/^text\/html/);
    expect(response.headers()['cache-control'], path).toBe('private, no-store');
    expect(response.headers()['x-page-cache'], path).toBe('bypass');
  }
  await Promise.all([buyer.dispose(), anonymous.dispose()]);
});
