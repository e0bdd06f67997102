/**
 * The waitlist of a sold-out tier on a phone: buyer A joins it while buyer B's unpaid
 * order holds the tier's last tickets; B's time to pay runs out, the tickets are held for A, who
 * follows the offer's link to checkout, pays in the sandbox and opens the voucher. The tier is the
 * test's own (a copy of a seeded listing in a new session), so no other spec buys its tickets.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { JS_BUDGET_KB } from '../../scripts/quality/pages.ts';
import type { ActivityDetail } from '../../src/lib/services/catalogue/activity-detail.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture, listingOnSale } from './fixtures.ts';
import {
  detailOf,
  escapeRegExp,
  firstLoadJsKb,
  fulfilAsOrderSeller,
  hydratedInView,
  localeOf,
  placeOrder,
  postWithoutBody,
  seriousViolations,
  unnamedControls,
  type Listing,
  confirmETicketByCard,
} from './shop-helpers.ts';

const DAY = 24 * 3600 * 1000;
const english = localeOf('en');

test.beforeEach(async ({ context }, testInfo) => {
  // A show of its own through the local database, two sign-ups, a payment.
  test.slow();
  await ownClientAddress(context, testInfo);
});

/**
 * A tier of two e-tickets in a new session `daysAhead` days away, copied from a seeded on-sale
 * listing. Tests running side by side pick different days: the same activity would otherwise show
 * two tiers of the same name in sessions of the same minute.
 */
async function ownTier(daysAhead: number): Promise<Listing> {
  const source = await listingOnSale({
    activityStates: ['onSale'],
    realNames: false,
    eTicket: true,
    sellerListed: true,
    orderOf: 2,
    order: 'oldest',
    offset: 7,
  });
  const startsAt = Date.now() + daysAhead * DAY;
  const session = await fixture('create-session', { activityId: source!.activityId, startsAt, endsAt: startsAt + 3 * 3600_000 });
  const tier = await fixture('copy-tier', { sessionId: session.id, fromTierId: source!.tierId, nameEn: `Waitlist ${source!.tierNameEn}` });
  const listing = await fixture('copy-listing', { tierId: tier.id, fromListingId: source!.id, quantity: 2, deliveryTypes: 'e_ticket' });
  return { id: listing.id, quantity: 2, activityId: source!.activityId, tierId: tier.id };
}

/** The tier's name in the waitlist's tier choice: its session, then the tier. */
function tierLabel(detail: ActivityDetail, tierId: number): string {
  const session = detail.sessions.find((one) => one.tiers.some((tier) => tier.id === tierId))!;
  return `${session.label} · ${session.tiers.find((tier) => tier.id === tierId)!.specification}`;
}

/** The texts of what the dev outbox holds for an address, newest first. */
async function outboxBodies(request: APIRequestContext, target: string): Promise<string[]> {
  const response = await request.get(`/api/v1/dev/outbox?target=${encodeURIComponent(target)}`);
  return ((await response.json()).data as { body: string }[]).map((row) => row.body);
}

test('a buyer waits for a sold-out tier, gets the tickets another buyer did not pay for, and buys them', async ({
  page,
  browser,
}, testInfo) => {
  const l = english;
  const listing = await ownTier(25);

  // Buyer B holds the tier's two tickets with an unpaid order: the tier is sold out.
  const other = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(other, testInfo);
  await signUpByEmail(other.request, 'waitlist-holder');
  const held = await placeOrder(other.request, listing);

  // Buyer A joins its waitlist for two tickets on the activity page.
  const { email } = await signUpByEmail(page.request, 'waitlist-buyer');
  const label = tierLabel((await detailOf(page.request, listing.activityId))!, listing.tierId);
  expect(await firstLoadJsKb(page, `/${l.prefix}/activity/${listing.activityId}`)).toBeLessThanOrEqual(JS_BUDGET_KB.browse);
  await hydratedInView(page, 'Waitlist');
  await page.getByRole('combobox', { name: l.say('detail.waitlist.tier') }).selectOption({ label });
  await page.getByRole('combobox', { name: l.say('detail.waitlist.quantity') }).selectOption('2');
  await page.getByRole('button', { name: l.say('detail.waitlist.join') }).click();
  await expect(page.getByText(l.say('detail.waitlist.place', { count: 2, place: 1, tier: label }))).toBeVisible();
  await expect(page.getByRole('button', { name: l.say('detail.waitlist.leave') })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  expect(await unnamedControls(page)).toEqual([]);

  // B's time to pay runs out: the two tickets are held for A.
  const expired = await postWithoutBody(other.request, `/api/v1/dev/orders/${held.id}/end-payment-time`);
  expect(expired.status(), await expired.text()).toBe(200);
  await other.close();

  // The offer reaches A through the queue, in the dev outbox, with its link to checkout.
  const checkoutLink = new RegExp(`https?://[^\\s]+/${l.prefix}/order/confirm\\?listingId=${listing.id}&quantity=2&offer=\\d+`);
  await expect.poll(() => outboxBodies(page.request, email), { timeout: 30_000 }).toContainEqual(expect.stringMatching(checkoutLink));
  const offerLink = (await outboxBodies(page.request, email)).map((body) => checkoutLink.exec(body)?.[0]).find(Boolean)!;

  await page.reload();
  await hydratedInView(page, 'Waitlist');
  await expect(page.getByText(new RegExp(`^2 tickets of ${escapeRegExp(label)} are held for you until \\d{2}:\\d{2}`))).toBeVisible();
  await expect(page.getByRole('link', { name: l.say('detail.waitlist.buy') })).toHaveAttribute(
    'href',
    new URL(offerLink).pathname + new URL(offerLink).search,
  );
  // A follows the message's link.
  await page.goto(offerLink);

  // Checkout with the held tickets: e-ticket, a card, the notes; then pay in the sandbox.
  await page.waitForURL(new RegExp(`/${l.prefix}/order/confirm\\?listingId=${listing.id}&quantity=2&offer=\\d+$`));
  const order = await confirmETicketByCard(page, l);
  expect(order).toMatchObject({ status: 'pending_payment', quantity: 2 });

  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: l.say('payment.page.pay', { amount: order.cost.formatted.total }) }).click();
  const provider = await popupOpened;
  await provider.getByRole('button', { name: l.say('payment.sandbox.approve') }).click();
  await provider.waitForURL(new RegExp(`/${l.prefix}/paySuccess\\?orderId=${order.id}$`));
  await provider.close();
  await page.waitForURL(new RegExp(`/${l.prefix}/paySuccess\\?orderId=${order.id}$`));

  // The seller issues the e-tickets; A opens the voucher from the order.
  const fulfilled = await fulfilAsOrderSeller(order.orderNo);
  expect(fulfilled.tickets).toHaveLength(2);
  await page.goto(`/${l.prefix}/orders/${order.id}`);
  await page
    .getByRole('region', { name: l.say('orders.detail.tickets') })
    .getByRole('link', { name: l.say('orders.detail.voucher') })
    .click();
  await page.waitForURL(new RegExp(`/${l.prefix}/voucher\\?`));
  for (const { ticketNo } of fulfilled.tickets) {
    await expect(page.getByRole('img', { name: l.say('voucher.qrLabel', { ticketNo }) })).toBeVisible();
  }

  // The waitlist is over for A.
  await page.goto(`/${l.prefix}/activity/${listing.activityId}`);
  await hydratedInView(page, 'Waitlist');
  await expect(page.getByRole('button', { name: l.say('detail.waitlist.join') })).toBeVisible();
  await expect(page.getByRole('button', { name: l.say('detail.waitlist.leave') })).toHaveCount(0);
});

test('a tier that goes on sale through a waiting room keeps its waitlist’s first buyer and sends the next one to its line', async ({
  page,
  browser,
}, testInfo) => {
  const l = localeOf('zh-HK');
  const listing = await ownTier(26);
  const other = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(other, testInfo);
  await signUpByEmail(other.request, 'line-holder');
  const held = await placeOrder(other.request, listing);

  // A joins the sold-out tier's waitlist; then the tier goes on sale as high demand of its own.
  await signUpByEmail(page.request, 'line-waitlist-buyer');
  const joined = await page.request.post('/api/v1/waitlist', { data: { tierId: listing.tierId, quantity: 2 } });
  expect(joined.status(), await joined.text()).toBe(200);
  await fixture('set-tier-high-demand', { tierId: listing.tierId, highDemand: true });

  // C, who comes later, is shown the tier's line where its waitlist was, and waits there.
  const late = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(late, testInfo);
  await signUpByEmail(late.request, 'line-late-buyer');
  const latePage = await late.newPage();
  const label = tierLabel((await detailOf(latePage.request, listing.activityId, l.language))!, listing.tierId);
  await latePage.goto(`/${l.prefix}/activity/${listing.activityId}`);
  const waitlist = latePage.getByRole('region', { name: l.say('detail.waitlist.heading') });
  await expect(waitlist.getByText(l.say('detail.waitlist.inLine', { tier: label }))).toBeVisible();
  await hydratedInView(latePage, 'Waitlist');
  await expect(waitlist.getByRole('option', { name: label, exact: true })).toHaveCount(0);
  await waitlist.getByRole('link', { name: l.say('waitingRoom.join') }).click();
  await latePage.waitForURL(new RegExp(`/${l.prefix}/waiting-room/\\d+\\?tier=${listing.tierId}$`));
  await expect(latePage.getByRole('status').getByText(l.say('waitingRoom.soldOut'))).toBeVisible();

  // B's time to pay runs out: the tickets are held for A, who buys them without queueing.
  const expired = await postWithoutBody(other.request, `/api/v1/dev/orders/${held.id}/end-payment-time`);
  expect(expired.status(), await expired.text()).toBe(200);
  await other.close();
  const waitlistOfA = async () => (await (await page.request.get('/api/v1/waitlist')).json()).data as { status: string }[];
  await expect.poll(async () => (await waitlistOfA()).map((entry) => entry.status), { timeout: 30_000 }).toEqual(['offered']);
  await page.goto(`/${l.prefix}/activity/${listing.activityId}`);
  await hydratedInView(page, 'Waitlist');
  const buy = page.getByRole('link', { name: l.say('detail.waitlist.buy') });
  await expect(buy).toBeVisible();
  await buy.click();
  await page.waitForURL(new RegExp(`/${l.prefix}/order/confirm\\?listingId=${listing.id}&quantity=2&offer=\\d+$`));
  const order = await confirmETicketByCard(page, l);
  expect(order).toMatchObject({ status: 'pending_payment', quantity: 2 });
  // C is still in line: the offer's tickets were never the line's.
  await expect(latePage.getByRole('status').getByText(l.say('waitingRoom.soldOut'))).toBeVisible();
  await late.close();
});
