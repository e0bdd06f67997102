/**
 * Order confirmation on a phone, in English and Traditional Chinese: from an activity's Buy to the
 * summary and the server's cost breakdown; courier needs an address picked through the address list;
 * a real-name event needs its attendees picked through the attendee list; the taker of on-site
 * tickets; a retried submit returns the same order; a price change is shown and re-quoted; and the
 * page's accessibility and first-load JavaScript. Activities and listings are found through the API,
 * so the tests follow whatever the seed made of today. The pay page belongs to another spec: only
 * its URL is checked here.
 */
import { expect, test, type Page } from '@playwright/test';
import { TOKEN_COOKIE, USER_ID_COOKIE } from '../../src/lib/config/request.ts';
import type { DeliveryType } from '../../src/lib/domain/delivery.ts';
import { formatOrderTime } from '../../src/lib/domain/order-pages.ts';
import type { ActivityDetail } from '../../src/lib/services/catalogue/activity-detail.ts';
import type { TicketGroupInfo } from '../../src/lib/services/catalogue/ticket-offers.ts';
import type { CheckoutQuote, OrderDetail, OrderPage } from '../../src/lib/services/orders/presenters.ts';
import { codeFor, ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import {
  activityIds,
  buyOnDetailPage,
  CHECKOUT_JS_BUDGET_KB,
  escapeRegExp,
  findListing,
  firstLoadJsKb,
  hydratedInView,
  localeOf,
  orderOf,
  seriousViolations,
  unnamedControls,
  type Locale,
  type Pick,
} from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

const english = localeOf('en');
const traditional = localeOf('zh-HK');

// ---------------------------------------------------------------------------------------------
// Finding something to buy

/** Other specs buy from the first activities too; starting further in (and wrapping round) keeps their holds out of the way. */
const CONFIRM_ACTIVITY_IDS = [...activityIds(1100, 1600), ...activityIds(1000, 1099)];

const offers = (type: DeliveryType) => (listing: TicketGroupInfo) => listing.deliveryTypes.includes(type);
const notRealName = (activity: ActivityDetail) => !activity.realNameRequired;

async function quoteOf(page: Page, pick: Pick, language: string, deliveryType?: DeliveryType): Promise<CheckoutQuote> {
  const response = await page.request.get('/api/v1/checkout/quote', {
    params: { listingId: pick.listing.ticketGroup.id, quantity: pick.quantity, ...(deliveryType ? { deliveryType } : {}) },
    headers: { language },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as CheckoutQuote;
}

function confirmUrl(l: Locale, pick: Pick, extra = ''): string {
  return `/${l.prefix}/order/confirm?listingId=${pick.listing.ticketGroup.id}&quantity=${pick.quantity}${extra}`;
}

async function submitOrder(page: Page, l: Locale): Promise<number> {
  await page.getByRole('button', { name: l.say('confirm.submit') }).click();
  await page.waitForURL(new RegExp(`/${l.prefix}/order/\\d+/pay$`));
  return Number(new URL(page.url()).pathname.split('/').at(-2));
}

// ---------------------------------------------------------------------------------------------

for (const l of [english, traditional]) {
  test.describe(`order confirmation (${l.prefix})`, () => {
    test("Buy on the detail page shows the order, the steps and the server's cost; courier needs an address picked from the list", async ({
      page,
      request,
    }) => {
      const pick = await findListing(request, CONFIRM_ACTIVITY_IDS, l.language, notRealName, offers('courier'));
      await signUpByEmail(page.request, `confirm-${l.prefix}`);
      const address = await page.request.post('/api/v1/addresses', {
        data: {
          name: 'Chan Tai Man',
          phoneCountryCode: '+852',
          phone: '91234567',
          countryCode: 'HK',
          district: 'WC',
          street: "1 Queen's Road East",
        },
      });
      expect(address.status()).toBe(200);

      await buyOnDetailPage(page, l, pick);
      await page.waitForURL(new RegExp(`^[^?]*${escapeRegExp(confirmUrl(l, pick))}`));

      const quote = await quoteOf(page, pick, l.language);
      await expect(page.getByRole('heading', { level: 1, name: l.say('title.orderConfirmPage') })).toBeVisible();
      const steps = page.getByRole('list', { name: l.say('confirm.steps') });
      await expect(steps.getByRole('listitem')).toHaveCount(4);
      await expect(steps.locator('[aria-current="step"]')).toHaveText(new RegExp(escapeRegExp(l.say('detail.process.confirm'))));
      await expect(page.getByRole('link', { name: pick.activity.name })).toBeVisible();
      const main = page.getByRole('main');
      await expect(main).toContainText(quote.session.label);
      await expect(main).toContainText(quote.tier.name);
      await expect(main).toContainText(l.say('confirm.quantityValue', { count: pick.quantity }));
      const cost = page.getByRole('region', { name: l.say('confirm.cost.heading') });
      await expect(cost).toContainText(l.say('confirm.cost.ticketDetail', { price: quote.allInUnitPrice.formatted, count: pick.quantity }));
      await expect(cost).toContainText(quote.cost.formatted.serviceFee);
      await expect(page.getByRole('status', { name: l.say('confirm.cost.total') })).toHaveText(quote.cost.formatted.total);

      await hydratedInView(page, 'ConfirmOrder');
      await page.getByRole('radio', { name: l.say('detail.delivery.courier') }).check();
      await expect(page.getByText(l.say('error.delivery_address_required'))).toBeVisible();
      const courier = await quoteOf(page, pick, l.language, 'courier');
      expect(courier.cost.postage).toBeGreaterThan(0);
      await expect(cost).toContainText(l.say('confirm.cost.fuelSurcharge', { amount: courier.cost.formatted.fuelSurcharge }));
      await expect(page.getByRole('status', { name: l.say('confirm.cost.total') })).toHaveText(courier.cost.formatted.total);

      await page.getByRole('link', { name: l.say('confirm.address.choose') }).click();
      await page.waitForURL(new RegExp(`/${l.prefix}/address/list\\?select=1`));
      await page.getByRole('link', { name: l.say('profile.useNamed', { name: 'Chan Tai Man' }) }).click();
      await page.waitForURL(new RegExp(`/${l.prefix}/order/confirm\\?.*deliveryType=courier.*addressId=\\d+`));
      await expect(page.getByRole('radio', { name: l.say('detail.delivery.courier') })).toBeChecked();
      await expect(main).toContainText('Chan Tai Man');
      await expect(page.getByText(l.say('error.delivery_address_required'))).toHaveCount(0);
      await expect(cost).toContainText(courier.cost.formatted.postage);
      await expect(page.getByRole('status', { name: l.say('confirm.cost.total') })).toHaveText(courier.cost.formatted.total);

      await hydratedInView(page, 'ConfirmOrder');
      await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();
      const order = await orderOf(page.request, await submitOrder(page, l));
      expect(order.status).toBe('pending_payment');
      expect(order.deliveryType).toBe('courier');
      expect(order.shippingAddress?.name).toBe('Chan Tai Man');
      expect(order.quantity).toBe(pick.quantity);
      expect(order.cost.total).toBe(courier.cost.total);
    });

    test('a real-name event needs its attendees, picked from the attendee list', async ({ page, request }) => {
      const pick = await findListing(
        request,
        CONFIRM_ACTIVITY_IDS,
        l.language,
        (activity) => activity.realNameRequired,
        offers('e_ticket'),
      );
      await signUpByEmail(page.request, `confirm-real-${l.prefix}`);
      const names = Array.from({ length: pick.quantity }, (_, i) => `Attendee ${i + 1}`);
      for (const [i, name] of names.entries()) {
        const saved = await page.request.post('/api/v1/attendees', {
          data: { name, nationality: 'GB', idCardType: 'passport', idCardNo: `P${1_000_000 + i}` },
        });
        expect(saved.status()).toBe(200);
      }

      await page.goto(confirmUrl(l, pick, '&deliveryType=e_ticket'));
      const need = pick.quantity;
      await expect(page.getByRole('heading', { level: 2, name: l.say('confirm.attendees.heading') })).toBeVisible();
      await expect(page.getByText(l.say('profile.attendee.needed', { count: need }))).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: l.say('profile.attendee.remain', { count: need }) })).toBeVisible();

      await hydratedInView(page, 'ConfirmOrder');
      await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();
      await page.getByRole('button', { name: l.say('confirm.submit') }).click();
      await expect(page.getByText(l.say('error.attendees_required', { count: need }))).toBeVisible();
      await page.waitForURL(/\/order\/confirm/);

      await page.getByRole('link', { name: l.say('confirm.attendees.choose') }).click();
      await page.waitForURL(new RegExp(`/${l.prefix}/customer/list\\?select=1`));
      await hydratedInView(page, 'AttendeePicker');
      for (const name of names) await page.getByRole('checkbox', { name: new RegExp(name) }).check();
      await page.getByRole('link', { name: l.say('profile.attendee.confirm') }).click();

      await page.waitForURL(/\/order\/confirm\?.*attendeeIds=/);
      await expect(page.getByRole('status').filter({ hasText: l.say('profile.attendee.complete', { count: need }) })).toBeVisible();
      for (const name of names) await expect(page.getByRole('main')).toContainText(name);
      await hydratedInView(page, 'ConfirmOrder');
      await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();
      const order = await orderOf(page.request, await submitOrder(page, l));
      expect(order.attendees.map((attendee) => attendee.name)).toEqual(names);
    });
  });
}

test.describe('order confirmation in English', () => {
  const l = english;

  test('on-site pickup asks for the taker, checks the phone and keeps the taker across a reload', async ({ page, request }) => {
    const pick = await findListing(request, CONFIRM_ACTIVITY_IDS, l.language, notRealName, offers('on_site'));
    await signUpByEmail(page.request, 'confirm-taker');
    await page.goto(confirmUrl(l, pick, '&deliveryType=on_site'));
    const quote = await quoteOf(page, pick, l.language, 'on_site');
    expect(quote.onSitePickupFrom).toBe(quote.session.startsAt - 60 * 60 * 1000);
    const from = formatOrderTime(quote.onSitePickupFrom, 'en');
    await expect(page.getByText(l.say('confirm.delivery.on_site', { venue: quote.activity.venueName, from }))).toBeVisible();

    await hydratedInView(page, 'ConfirmOrder');
    await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();
    await page.getByRole('button', { name: l.say('confirm.submit') }).click();
    await expect(page.getByText(l.say('error.name_required'))).toBeVisible();
    await expect(page.getByText(l.say('error.phone_required'))).toBeVisible();
    await expect(page.getByRole('textbox', { name: l.say('confirm.taker.name') })).toBeFocused();

    await page.getByRole('textbox', { name: l.say('confirm.taker.name') }).fill('Wong Siu Ming');
    await page.getByRole('textbox', { name: l.say('confirm.taker.phone') }).fill('123');
    await page.getByRole('button', { name: l.say('confirm.submit') }).click();
    await expect(page.getByText(l.say('error.phone_invalid'))).toBeVisible();
    await page.getByRole('textbox', { name: l.say('confirm.taker.phone') }).fill('61234567');

    await page.reload();
    await hydratedInView(page, 'ConfirmOrder');
    await expect(page.getByRole('radio', { name: l.say('detail.delivery.on_site') })).toBeChecked();
    await expect(page.getByRole('textbox', { name: l.say('confirm.taker.name') })).toHaveValue('Wong Siu Ming');
    await expect(page.getByRole('textbox', { name: l.say('confirm.taker.phone') })).toHaveValue('61234567');
    await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();
    const order = await orderOf(page.request, await submitOrder(page, l));
    expect(order.taker).toEqual({ name: 'Wong Siu Ming', phone: '+852 61234567', confirmed: false, confirmable: true });
    expect(order.pickup?.from).toBeLessThan(order.session.startsAt);

    // On the order page the buyer confirms the taker's number with the code sent to it, or the pickup details come to the buyer alone.
    const phone = '+852 61234567';
    await page.goto(`/${l.prefix}/orders/${order.id}`);
    await expect(page.getByText(l.say('orders.taker.unconfirmed', { phone }))).toBeVisible();
    await hydratedInView(page, 'TakerPhoneConfirm');
    await page.getByRole('button', { name: l.say('orders.taker.send') }).click();
    await expect(page.getByRole('status').getByText(l.say('orders.taker.sent', { phone }))).toBeVisible();
    const code = await codeFor(page.request, phone);
    const codeField = page.getByRole('textbox', { name: l.say('orders.taker.code') });
    await codeField.fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: l.say('orders.taker.confirm') }).click();
    await expect(page.getByText(l.say('error.code_wrong'))).toBeVisible();
    await codeField.fill(code);
    await page.getByRole('button', { name: l.say('orders.taker.confirm') }).click();
    await expect(page.getByText(l.say('orders.taker.confirmed'))).toBeVisible();
    await expect(page.getByRole('button', { name: l.say('orders.taker.send') })).toHaveCount(0);
    expect((await orderOf(page.request, order.id)).taker).toMatchObject({ confirmed: true, confirmable: false });
  });

  test('a submit whose answer is lost is retried with the same key and returns the same order', async ({ page, request }) => {
    const pick = await findListing(request, CONFIRM_ACTIVITY_IDS, l.language, notRealName, offers('e_ticket'));
    await signUpByEmail(page.request, 'confirm-retry');
    await page.goto(confirmUrl(l, pick, '&deliveryType=e_ticket'));
    await hydratedInView(page, 'ConfirmOrder');
    await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();

    const keys: string[] = [];
    let firstOrderId = 0;
    await page.route('**/api/v1/orders', async (route) => {
      keys.push(route.request().headers()['idempotency-key']);
      if (keys.length > 1) return route.continue();
      // The server creates the order, but its answer never reaches the page.
      firstOrderId = ((await (await route.fetch()).json()).data as OrderDetail).id;
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: l.say('confirm.submit') }).click();
    await expect(page.getByRole('alert').filter({ hasText: l.say('error.network') })).toBeVisible();
    expect(firstOrderId).toBeGreaterThan(0);

    expect(await submitOrder(page, l)).toBe(firstOrderId);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
    expect(keys[1]).toBe(keys[0]);
    const list = (await (await page.request.get('/api/v1/orders')).json()).data as OrderPage;
    expect(list.total).toBe(1);
  });

  test('a price that changed before submit is shown with the new total, then the order goes through', async ({
    page,
    context,
    request,
    baseURL,
  }) => {
    const pick = await findListing(request, CONFIRM_ACTIVITY_IDS, l.language, notRealName, offers('e_ticket'));
    await signUpByEmail(page.request, 'confirm-price');
    await page.goto(confirmUrl(l, pick, '&deliveryType=e_ticket'));
    await hydratedInView(page, 'ConfirmOrder');
    const before = await page.getByRole('status', { name: l.say('confirm.cost.total') }).textContent();
    expect(before).toMatch(/^HK\$/);

    // Another tab switches the currency: the server now prices the same order in New Taiwan dollars.
    await context.addCookies([{ name: 'currencyCode', value: 'TWD', url: baseURL! }]);
    await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();
    await page.getByRole('button', { name: l.say('confirm.submit') }).click();
    await expect(page.getByRole('alert').filter({ hasText: l.say('error.price_changed') })).toBeVisible();
    await expect(page.getByRole('status', { name: l.say('confirm.cost.total') })).toHaveText(/NT\$/);
    await page.waitForURL(/\/order\/confirm/);

    const order = await orderOf(page.request, await submitOrder(page, l));
    expect(order.cost.currency).toBe('TWD');
  });

  test('a link without a listing, or to one that does not exist, says so instead of the form', async ({ page }) => {
    await signUpByEmail(page.request, 'confirm-bad');
    const incomplete = await page.goto('/en/order/confirm?listingId=abc');
    expect(incomplete?.status()).toBe(400);
    await expect(page.getByRole('alert')).toHaveText(l.say('confirm.badLink'));
    const missing = await page.goto('/en/order/confirm?listingId=999999&quantity=1');
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole('alert')).toHaveText(l.say('error.listing_not_found'));
    await expect(page.getByRole('link', { name: l.say('confirm.backHome') })).toBeVisible();
  });

  test("reads the session with the quote: a dead session, or another user's, goes to login with its cookies cleared", async ({
    page,
    context,
  }) => {
    const { userId } = await signUpByEmail(page.request, 'confirm-claim');
    const other = await signUpByEmail(page.request, 'confirm-claim');
    const token = (await context.cookies()).find((cookie) => cookie.name === TOKEN_COOKIE)!;
    const cookieNames = async () => (await context.cookies()).map((cookie) => cookie.name);
    const url = '/en/order/confirm?listingId=999999&quantity=1';
    // The second user's live token with the first user's id: not signed in, as on every page behind sign-in.
    await context.addCookies([{ name: USER_ID_COOKIE, value: String(userId), domain: token.domain, path: '/' }]);
    await page.goto(url);
    await page.waitForURL(/\/en\/login\?redirect=/);
    expect(new URL(page.url()).searchParams.get('redirect')).toBe(url);
    expect(await cookieNames()).not.toContain(TOKEN_COOKIE);
    // A forged token with a user's own id, on a link without a listing: the same.
    await context.addCookies([
      { name: TOKEN_COOKIE, value: 'forged-token', domain: token.domain, path: '/' },
      { name: USER_ID_COOKIE, value: String(other.userId), domain: token.domain, path: '/' },
    ]);
    await page.goto('/en/order/confirm?listingId=abc');
    await page.waitForURL(/\/en\/login\?redirect=/);
    expect(await cookieNames()).not.toContain(USER_ID_COOKIE);
  });
});

// ---------------------------------------------------------------------------------------------
// Quality: the checkout budget of first-load JavaScript, axe and named controls.

for (const l of [english, traditional]) {
  test(`the confirmation page (${l.prefix}) passes axe, names every control and loads at most ${CHECKOUT_JS_BUDGET_KB} KB of JavaScript`, async ({
    page,
    request,
  }) => {
    const pick = await findListing(request, CONFIRM_ACTIVITY_IDS, l.language, notRealName, offers('courier'));
    await signUpByEmail(page.request, `confirm-quality-${l.prefix}`);
    const totalKb = await firstLoadJsKb(page, confirmUrl(l, pick, '&deliveryType=courier'));
    console.log(`JS confirm ${l.prefix}: ${totalKb.toFixed(1)} KB gzip of ${CHECKOUT_JS_BUDGET_KB} KB`);
    expect(totalKb).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET_KB);

    await hydratedInView(page, 'ConfirmOrder');
    expect(await seriousViolations(page)).toEqual([]);
    await expect(page.getByRole('main')).toHaveCount(1);
    await expect(page.locator('html')).toHaveAttribute('lang', l.prefix);
    expect(await unnamedControls(page)).toEqual([]);
  });
}
