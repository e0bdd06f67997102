/**
 * All-in prices: every price a buyer sees before checkout includes the service fee, and
 * the price of one ticket delivered without postage is what the confirm page charges. For each
 * language and currency, an activity of the home page is read as an anonymous visitor reads it (the
 * pages the edge shares) — its card on the home page and in search results, its lowest price on its
 * page — then a signed-in buyer picks its cheapest listing in the ticket picker and goes on to the
 * confirm page: the "from" prices are that total rounded up to whole units, the picker's prices and
 * the confirm page's total are that total exactly.
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import type { DeliveryType } from '../../src/lib/domain/delivery.ts';
import { searchUrl } from '../../src/lib/domain/listing-url.ts';
import { fromPrice } from '../../src/lib/domain/pricing.ts';
import type { ActivityCard, HomeConfig } from '../../src/lib/services/catalogue/catalogue.ts';
import type { TicketGroupInfo } from '../../src/lib/services/catalogue/ticket-offers.ts';
import { signUpByEmail } from './auth-helpers.ts';
import { BASE_URL, detailOf, escapeRegExp, hydratedInView, localeOf, offerOf, type Locale, type PagePrefix } from './shop-helpers.ts';

/** Deliveries that cost no postage: what "the price of one ticket" is compared for. */
const NO_POSTAGE: readonly DeliveryType[] = ['e_ticket', 'on_site', 'self_pickup'];

/** Tickets the cheapest listing must have left beyond one, so other specs' holds never empty it meanwhile. */
const SPARE_TICKETS = 4;

const CASES: { prefix: PagePrefix; currency: string; minorDigits: number }[] = [
  { prefix: 'en', currency: 'HKD', minorDigits: 2 },
  { prefix: 'zh-TW', currency: 'TWD', minorDigits: 0 },
  { prefix: 'zh-CN', currency: 'CNY', minorDigits: 2 },
];

/** An activity of the home page, its cheapest listing, and where that listing sits in the picker. */
interface Target {
  card: ActivityCard;
  sessionLabel: string;
  tierName: string;
  listing: TicketGroupInfo;
  deliveryType: DeliveryType;
}

/**
 * The first home-page activity on sale whose cheapest listing (over all its tiers) delivers without
 * postage and has tickets to spare; read through the API in the page's language and currency.
 */
async function homeTarget(request: APIRequestContext, prefix: PagePrefix, currency: string): Promise<Target> {
  const headers = { language: prefix, currency };
  const home = (await (await request.get('/api/', { headers })).json()).data as HomeConfig;
  for (const card of [...home.rareActivities, ...home.discountActivities]) {
    const detail = await detailOf(request, card.id, prefix);
    if (!detail?.bookable || card.soldOut) continue;
    const offers: { sessionLabel: string; tierName: string; group: TicketGroupInfo }[] = [];
    for (const session of detail.sessions) {
      for (const tier of session.tiers.filter((t) => t.hasTicket)) {
        const { ticketGroupInfoList } = await offerOf(request, card.id, tier.id, headers);
        offers.push(...ticketGroupInfoList.map((group) => ({ sessionLabel: session.label, tierName: tier.specification, group })));
      }
    }
    const cheapest = offers.sort((a, b) => a.group.ticketGroup.salePrice - b.group.ticketGroup.salePrice)[0];
    const deliveryType = cheapest?.group.deliveryTypes.find((type) => NO_POSTAGE.includes(type));
    if (!cheapest || !deliveryType || cheapest.group.minQuantity > 1 || cheapest.group.available < 1 + SPARE_TICKETS) continue;
    if (offers.filter((o) => o.group.ticketGroup.salePrice === cheapest.group.ticketGroup.salePrice).length > 1) continue;
    return { card, sessionLabel: cheapest.sessionLabel, tierName: cheapest.tierName, listing: cheapest.group, deliveryType };
  }
  throw new Error(`No home-page activity in ${currency} has a cheapest listing without postage`);
}

/** Minor units of a displayed amount ("HK$5,012+", "NT$20,546", "CN¥4,612.50"): the locales here group with commas. */
function minorUnitsOf(text: string, minorDigits: number): number {
  const number = text.replace(/[^\d.]/g, '');
  expect(number, `an amount in "${text}"`).toMatch(/^\d+(\.\d+)?$/);
  return Math.round(Number(number) * 10 ** minorDigits);
}

async function languageAndCurrency(context: BrowserContext, prefix: PagePrefix, currency: string): Promise<void> {
  await context.addCookies([
    { name: 'currencyCode', value: currency, url: BASE_URL },
    { name: 'language', value: prefix, url: BASE_URL },
  ]);
}

/** The "from" price on the card of `name` in a list of cards. */
async function cardPrice(page: Page, l: Locale, name: string): Promise<string> {
  const card = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })
    .first();
  await expect(card).toContainText(l.say('card.allIn'));
  return (await card.getByText(/\+$/).first().textContent()) ?? '';
}

for (const { prefix, currency, minorDigits } of CASES) {
  test(`every price before checkout is what checkout charges for one ticket (${prefix}, ${currency})`, async ({
    browser,
    page,
    context,
  }) => {
    const l = localeOf(prefix);
    const target = await homeTarget(page.request, prefix, currency);
    const name = target.card.name;

    // As an anonymous visitor: the pages the edge caches per language and currency.
    const visitor = await browser.newContext();
    await languageAndCurrency(visitor, prefix, currency);
    const browsing = await visitor.newPage();
    await browsing.goto(`/${prefix}/`);
    const homePrice = await cardPrice(browsing, l, name);
    await browsing.goto(`/${prefix}${searchUrl(name)}`);
    const searchPrice = await cardPrice(browsing, l, name);
    await browsing.goto(`/${prefix}/activity/${target.card.id}`);
    const detailPrice =
      (await browsing
        .getByRole('term')
        .filter({ hasText: l.say('detail.price') })
        .locator('xpath=following-sibling::dd[1]')
        .textContent()) ?? '';
    await visitor.close();

    // As a signed-in buyer: the picker, then the confirm page for one ticket without postage or coupon.
    await signUpByEmail(page.request, `all-in-${prefix}`);
    await languageAndCurrency(context, prefix, currency);
    await page.goto(`/${prefix}/activity/${target.card.id}`);
    await hydratedInView(page, 'TicketPicker');
    await page.getByRole('radio', { name: target.sessionLabel, exact: true }).check();
    const tier = page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(target.tierName)}`) });
    // The tier's label is its name, then its "from" price.
    const tierPrice = ((await page.locator('label', { has: tier }).textContent()) ?? '').slice(target.tierName.length);
    await tier.check();
    await expect(page.getByText(l.say('detail.picker.allIn', { percent: 8 }))).toBeVisible();
    const each = l.say('detail.picker.each', { price: target.listing.salePriceView });
    await page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(each)}`) }).check();
    await page.getByRole('combobox', { name: l.say('detail.picker.quantity') }).selectOption('1');
    const pickerTotal = page.getByRole('status', { name: l.say('detail.picker.total') });
    await expect(pickerTotal).toHaveText(target.listing.salePriceView);
    await page.getByRole('button', { name: l.say('detail.picker.buy') }).click();
    await page.waitForURL(/\/order\/confirm\?/);
    const confirmUrl = new URL(page.url());
    confirmUrl.searchParams.set('deliveryType', target.deliveryType);
    confirmUrl.searchParams.set('coupon', 'none');
    await page.goto(confirmUrl.href);
    // The picker's price of one ticket and its total (checked above) are the confirm page's total, exactly.
    await expect(page.getByRole('status', { name: l.say('confirm.cost.total'), exact: true })).toHaveText(target.listing.salePriceView);
    const total = minorUnitsOf(target.listing.salePriceView, minorDigits);

    // The "from" prices are that total rounded up to whole units: never below it, by less than one unit.
    for (const [where, shown] of [
      ['home card', homePrice],
      ['search result', searchPrice],
      ['detail page', detailPrice],
      ['picker tier', tierPrice],
    ] as const) {
      expect(shown, `${where} is a "from" price`).toMatch(/\+$/);
      const from = minorUnitsOf(shown, minorDigits);
      expect(from, `${where} price`).toBe(fromPrice(total, minorDigits));
      expect(from - total, `${where} rounds up by less than one unit`).toBeLessThan(10 ** minorDigits);
    }
  });
}
