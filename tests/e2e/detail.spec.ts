/**
 * Activity detail journeys on a phone: pick session, tier, listing and quantity, see the total in the
 * selected currency, Buy while signed out (to login, then back to the order confirmation), and
 * notify-me for visitors and signed-in users, and the sold-out waitlist's way in for visitors.
 * Activities are found through the API, so the tests follow whatever the seed made of today.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { formatMoney } from '../../src/lib/domain/money.ts';
import { allInAmount } from '../../src/lib/domain/pricing.ts';
import type { ActivityDetail, SessionView } from '../../src/lib/services/catalogue/activity-detail.ts';
import type { TicketGroupInfo, TicketOffer } from '../../src/lib/services/catalogue/ticket-offers.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { detailOf, escapeRegExp, hydratedInView, offerOf } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

const FIRST_ACTIVITY_ID = 1000;
const LAST_ACTIVITY_ID = 1500;

/** The first seeded activity that passes the test, read through the API. */
async function findActivity(request: APIRequestContext, wanted: (detail: ActivityDetail) => boolean): Promise<ActivityDetail> {
  for (let id = FIRST_ACTIVITY_ID; id <= LAST_ACTIVITY_ID; id++) {
    const detail = await detailOf(request, id);
    if (!detail) break;
    if (wanted(detail)) return detail;
  }
  throw new Error('No seeded activity fits this test');
}

const sessionsWithTickets = (detail: ActivityDetail) => detail.sessions.filter((s) => s.tiers.filter((t) => t.hasTicket).length >= 2);

/** On sale, with a second session that has two tiers with tickets: every step of the picker changes something. */
const pickable = (detail: ActivityDetail) => detail.saleState === 'onSale' && sessionsWithTickets(detail).length >= 2;

/** A listing that allows two tickets and whose price no other listing of the offer shares. */
function listingForTwo(offer: TicketOffer): TicketGroupInfo {
  const unique = offer.ticketGroupInfoList.filter(
    (g) => g.maxQuantity >= 2 && offer.ticketGroupInfoList.filter((other) => other.salePriceView === g.salePriceView).length === 1,
  );
  expect(unique.length, 'a listing allowing two tickets').toBeGreaterThan(0);
  return unique.at(-1)!;
}

interface Choice {
  session: SessionView;
  tierName: string;
  tierId: number;
}

function secondChoice(detail: ActivityDetail): Choice {
  const session = sessionsWithTickets(detail)[1];
  const tier = session.tiers.filter((t) => t.hasTicket)[1];
  return { session, tierName: tier.specification, tierId: tier.id };
}

async function pick(
  page: Page,
  choice: Choice,
  listing: TicketGroupInfo,
  labels: { each: (price: string) => string; quantity: string },
): Promise<void> {
  await page.getByRole('radio', { name: choice.session.label }).check();
  await page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(choice.tierName)}`) }).check();
  const listingRadio = page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(labels.each(listing.salePriceView))}`) });
  await listingRadio.check();
  await expect(listingRadio).toBeChecked();
  await page.getByRole('combobox', { name: labels.quantity }).selectOption('2');
}

test.describe('activity detail in English', () => {
  test('shows the activity and picks session, tier, listing and quantity with the total in HKD; Buy leads to login', async ({
    page,
    request,
  }) => {
    const detail = await findActivity(request, pickable);
    const choice = secondChoice(detail);
    const offer = await offerOf(request, detail.id, choice.tierId, { language: 'en', currency: 'HKD' });
    const listing = listingForTwo(offer);

    await page.goto(`/en/activity/${detail.id}`);
    await expect(page.getByRole('heading', { level: 1, name: detail.name })).toBeVisible();
    await expect(page.getByText('On Sale', { exact: true })).toBeVisible();
    await expect(page.getByText(detail.venue.name, { exact: false }).first()).toBeVisible();
    const map = page.getByRole('link', { name: /View on map/ });
    await expect(map).toHaveAttribute('href', detail.venue.mapUrl);
    await expect(map).toHaveAttribute('target', '_blank');
    await expect(page.getByText(`Limit ${detail.numMax} Ticket(s) per Order`).first()).toBeVisible();
    for (const heading of ['Tickets', 'Buying notes', 'Description', 'Purchase process']) {
      await expect(page.getByRole('heading', { level: 2, name: heading })).toBeVisible();
    }

    await hydratedInView(page, 'TicketPicker');
    await pick(page, choice, listing, { each: (price) => `${price} each`, quantity: 'Quantity' });
    const total = formatMoney({ amount: allInAmount(listing.ticketGroup.salePrice, 2), currency: 'HKD' }, 'en', offer.minorDigits);
    await expect(page.getByRole('status', { name: 'Total' })).toHaveText(total);

    await page.getByRole('button', { name: 'Buy now' }).click();
    await page.waitForURL(/\/en\/login\?redirect=/);
    const redirect = new URL(page.url()).searchParams.get('redirect');
    expect(redirect).toBe(`/en/order/confirm?listingId=${listing.ticketGroup.id}&quantity=2`);
  });

  test('offers the quantities the per-order limit and the listing stock allow', async ({ page, request }) => {
    const detail = await findActivity(request, pickable);
    const session = detail.sessions.find((s) => s.hasTicket)!;
    const tier = session.tiers.find((t) => t.hasTicket)!;
    const [cheapest] = (await offerOf(request, detail.id, tier.id, { language: 'en' })).ticketGroupInfoList;
    expect(cheapest.maxQuantity).toBe(Math.min(detail.numMax, cheapest.available));

    await page.goto(`/en/activity/${detail.id}`);
    await hydratedInView(page, 'TicketPicker');
    await expect(page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(cheapest.salePriceView)} each`) }).first()).toBeChecked();
    const options = await page.getByRole('combobox', { name: 'Quantity' }).locator('option').allTextContents();
    const expected = Array.from({ length: cheapest.maxQuantity - cheapest.minQuantity + 1 }, (_, i) => String(cheapest.minQuantity + i));
    expect(options).toEqual(expected);
  });
});

test.describe('activity detail in another currency', () => {
  test.use({
    storageState: {
      cookies: [
        {
          name: 'currencyCode',
          value: 'USD',
          domain: '127.0.0.1',
          path: '/',
          expires: -1,
          httpOnly: false,
          secure: false,
          sameSite: 'Lax',
        },
      ],
      origins: [],
    },
  });

  test('shows prices and the total in the currency chosen by cookie', async ({ page, request }) => {
    const detail = await findActivity(request, pickable);
    const choice = secondChoice(detail);
    const offer = await offerOf(request, detail.id, choice.tierId, { language: 'en', currency: 'USD' });
    expect(offer.currency).toBe('USD');
    const listing = listingForTwo(offer);

    await page.goto(`/en/activity/${detail.id}`);
    await hydratedInView(page, 'TicketPicker');
    await pick(page, choice, listing, { each: (price) => `${price} each`, quantity: 'Quantity' });
    const total = formatMoney({ amount: allInAmount(listing.ticketGroup.salePrice, 2), currency: 'USD' }, 'en', offer.minorDigits);
    expect(total).toMatch(/^US\$/);
    await expect(page.getByRole('status', { name: 'Total' })).toHaveText(total);
  });
});

test.describe('activity detail in Simplified Chinese', () => {
  test('picks tickets with Chinese labels, and Buy sends a visitor to login with the order as redirect', async ({ page, request }) => {
    const found = await findActivity(request, pickable);
    const detail = (await detailOf(request, found.id, 'zh-CN'))!;
    const choice = secondChoice(detail);
    const offer = await offerOf(request, detail.id, choice.tierId, { language: 'zh-CN', currency: 'HKD' });
    const listing = listingForTwo(offer);

    await page.goto(`/zh-CN/activity/${detail.id}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    await expect(page.getByRole('heading', { level: 1, name: detail.name })).toBeVisible();
    await expect(page.getByText('热卖中', { exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: '购票须知' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: '购票流程' })).toBeVisible();

    await hydratedInView(page, 'TicketPicker');
    await pick(page, choice, listing, { each: (price) => `每张 ${price}`, quantity: '数量' });
    const total = formatMoney({ amount: allInAmount(listing.ticketGroup.salePrice, 2), currency: 'HKD' }, 'zh-CN', offer.minorDigits);
    await expect(page.getByRole('status', { name: '合计' })).toHaveText(total);

    await page.getByRole('button', { name: '立即购买' }).click();
    await page.waitForURL(/\/zh-CN\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/zh-CN/order/confirm?listingId=${listing.ticketGroup.id}&quantity=2`);
  });
});

test.describe('activity detail without tickets on sale', () => {
  test('shows sold out and sends a visitor who would join the waitlist to login first', async ({ page, request }) => {
    const detail = await findActivity(request, (d) => d.saleState === 'soldOut');
    await page.goto(`/en/activity/${detail.id}`);
    await expect(page.getByText('Sold out', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Buy now' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Notify Me When Available' })).toHaveCount(0);
    await page.getByRole('link', { name: 'Log in to join the waitlist', exact: true }).click();
    await page.waitForURL(/\/en\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(`/en/activity/${detail.id}`);
  });

  test('lets a signed-in user subscribe to a show not yet on sale, and remembers it', async ({ page, request }) => {
    const detail = await findActivity(request, (d) => d.saleState === 'notOnSale' && d.notifyMe);
    await signUpByEmail(page.request, 'notify');

    await page.goto(`/zh-HK/activity/${detail.id}`);
    await expect(page.getByText('未開售', { exact: true })).toBeVisible();
    await hydratedInView(page, 'NotifyMe');
    await page.getByRole('button', { name: '有票時通知我' }).click();
    await expect(page.getByRole('status')).toHaveText('已登記通知');

    await page.reload();
    await expect(page.getByText('已登記通知')).toBeVisible();
    await expect(page.getByRole('button', { name: '有票時通知我' })).toHaveCount(0);
  });

  test('shows not on sale in Traditional Chinese for an activity whose sale has not started', async ({ page, request }) => {
    const detail = await findActivity(request, (d) => d.saleState === 'notOnSale' && d.notifyMe);
    await page.goto(`/zh-HK/activity/${detail.id}`);
    await expect(page.getByText('未開售', { exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: '有票時通知我' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 3, name: '日期及場次' })).toBeVisible();
  });

  test('answers an unknown or malformed activity id with the 404 page in the page language', async ({ page }) => {
    const unknown = await page.goto('/zh-HK/activity/999999');
    expect(unknown?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '找不到頁面' })).toBeVisible();
    const malformed = await page.goto('/en/activity/not-a-number');
    expect(malformed?.status()).toBe(404);
    await expect(page.getByRole('link', { name: 'Back to home' })).toBeVisible();
  });
});
