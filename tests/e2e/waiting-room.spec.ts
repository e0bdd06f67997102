/**
 * A hot on-sale's waiting room on phones: three buyers, each in a browser of their own,
 * queue for a high-demand session, one through the activity page's Buy and two through a checkout
 * link. Each page shows its place; the room lets one through at a time (its dev door: the test
 * stops its clock and opens the door, so nothing waits for time), and each page moves on by itself:
 * the first to checkout, the others a place up. Each buyer gets through in arrival order and pays in
 * the sandbox. The session is the test's own (a new high-demand session copied from a seeded listing).
 * A buyer in line while every ticket is taken is told so, keeps the place, and goes on when one is back.
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { JS_BUDGET_KB } from '../../scripts/quality/pages.ts';
import { formatOrderTime } from '../../src/lib/domain/order-pages.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture, listingOnSale } from './fixtures.ts';
import {
  detailOf,
  escapeRegExp,
  firstLoadJsKb,
  hydratedInView,
  localeOf,
  offerOf,
  orderOf,
  payInSandbox,
  seriousViolations,
  unnamedControls,
  type Locale,
  confirmETicketByCard,
} from './shop-helpers.ts';

const DAY = 24 * 3600 * 1000;
const english = localeOf('en');

interface HotListing {
  listingId: number;
  sessionId: number;
  activityId: number;
  tierName: string;
}

interface CopiedTier {
  tierId: number;
  tierName: string;
  listingId: number;
}

/**
 * A session `daysAhead` days away copied from the seeded on-sale listing at `offset`, high demand or
 * not, with one tier per prefix (named `<prefix> <session id>`, high demand of its own or not), each
 * with one listing of ten e-tickets.
 */
async function copiedShow(
  offset: number,
  daysAhead: number,
  sessionHighDemand: 0 | 1,
  tiers: { prefix: string; highDemand: 0 | 1 }[],
): Promise<{ sessionId: number; activityId: number; tiers: CopiedTier[] }> {
  const source = await listingOnSale({
    activityStates: ['onSale'],
    realNames: false,
    eTicket: true,
    sellerListed: true,
    orderOf: 1,
    order: 'oldest',
    offset,
  });
  const startsAt = Date.now() + daysAhead * DAY;
  const session = await fixture('create-session', {
    activityId: source!.activityId,
    startsAt,
    endsAt: startsAt + 3 * 3600_000,
    highDemand: sessionHighDemand === 1,
  });
  const copied: CopiedTier[] = [];
  for (const { prefix, highDemand } of tiers) {
    const tierName = `${prefix} ${session.id}`;
    const tier = await fixture('copy-tier', {
      sessionId: session.id,
      fromTierId: source!.tierId,
      nameEn: tierName,
      highDemand: highDemand === 1,
    });
    const listing = await fixture('copy-listing', { tierId: tier.id, fromListingId: source!.id, quantity: 10, deliveryTypes: 'e_ticket' });
    copied.push({ tierId: tier.id, tierName, listingId: listing.id });
  }
  return { sessionId: session.id, activityId: source!.activityId, tiers: copied };
}

/** A high-demand session 30 days away with one listing of ten e-tickets. */
async function hotSession(): Promise<HotListing> {
  const {
    sessionId,
    activityId,
    tiers: [hot],
  } = await copiedShow(13, 30, 1, [{ prefix: 'Hot', highDemand: 0 }]);
  return { listingId: hot.listingId, sessionId, activityId, tierName: hot.tierName };
}

interface TierOnSale extends HotListing {
  /** The session's other tier, sold without a line. */
  plainListingId: number;
  tierId: number;
}

/** A plain session 31 days away with two tiers of ten e-tickets each: one (`VIP …`) on sale as high demand of its own, the other plain. */
async function tierOnSale(): Promise<TierOnSale> {
  const {
    sessionId,
    activityId,
    tiers: [vip, plain],
  } = await copiedShow(14, 31, 0, [
    { prefix: 'VIP', highDemand: 1 },
    { prefix: 'Plain', highDemand: 0 },
  ]);
  return { listingId: vip.listingId, plainListingId: plain.listingId, sessionId, activityId, tierName: vip.tierName, tierId: vip.tierId };
}

/** The room's dev door (local builds only): its rate from now on, or the next buyers let through now. */
async function steer(
  request: APIRequestContext,
  sessionId: number,
  body: { admissionsPerMinute?: number; admitNext?: number },
  tierId: number | null = null,
) {
  const answer = await request.post(`/api/v1/dev/waiting-rooms/${sessionId}${tierId === null ? '' : `?tier=${tierId}`}`, { data: body });
  expect(answer.status(), await answer.text()).toBe(200);
}

/** A signed-in buyer's phone of their own. */
async function buyerPhone(context: BrowserContext, testInfo: Parameters<Parameters<typeof test>[2]>[1], label: string): Promise<Page> {
  await ownClientAddress(context, testInfo);
  await signUpByEmail(context.request, label);
  return context.newPage();
}

/** The buyer's place as their waiting page shows it. */
const placeShown = (page: Page, l: Locale, place: number) => page.getByRole('status').getByText(l.say('waitingRoom.place', { place }));

/** On the order confirmation the room sent the buyer to: e-ticket, a card, the notes, Submit; then pays in the sandbox. */
async function buy(page: Page, l: Locale, hot: HotListing): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`/${l.prefix}/order/confirm\\?listingId=${hot.listingId}&quantity=1(&|$)`));
  const order = await confirmETicketByCard(page, l);
  expect(order).toMatchObject({ status: 'pending_payment', quantity: 1 });
  await payInSandbox(page, order);
  expect((await orderOf(page.request, order.id)).status).not.toBe('pending_payment');
}

test('three buyers queue for a hot on-sale, watch their places move, and each gets through in order and buys', async ({
  browser,
  request,
}, testInfo) => {
  // Three sign-ups, three checkouts and three sandbox payments on a busy machine.
  test.slow();
  const l = english;
  const hot = await hotSession();
  // The room's own clock is stopped: only the test lets buyers through.
  await steer(request, hot.sessionId, { admissionsPerMinute: 0 });
  const contexts = await Promise.all([0, 1, 2].map(() => browser.newContext({ ...testInfo.project.use })));
  const [first, second, third] = await Promise.all(contexts.map((context, i) => buyerPhone(context, testInfo, `queue-${i + 1}`)));
  const waitingUrl = new RegExp(`/${l.prefix}/waiting-room/${hot.sessionId}\\?listingId=${hot.listingId}&quantity=1$`);

  // The first buyer chooses the session, tier and listing on the activity page: Buy takes them to the line.
  const detail = (await detailOf(first.request, hot.activityId))!;
  const session = detail.sessions.find((one) => one.id === hot.sessionId)!;
  const { ticketGroupInfoList } = await offerOf(first.request, hot.activityId, session.tiers[0].id, {
    language: l.language,
    currency: 'HKD',
  });
  const price = ticketGroupInfoList[0].salePriceView;
  expect(await firstLoadJsKb(first, `/${l.prefix}/activity/${hot.activityId}`)).toBeLessThanOrEqual(JS_BUDGET_KB.browse);
  await hydratedInView(first, 'TicketPicker');
  await first.getByRole('radio', { name: session.label, exact: true }).check();
  await first.getByRole('radio', { name: new RegExp(`^${escapeRegExp(hot.tierName)}`) }).check();
  await first.getByRole('radio', { name: new RegExp(`^${escapeRegExp(l.say('detail.picker.each', { price }))}`) }).check();
  await first.getByRole('button', { name: l.say('detail.picker.buy') }).click();
  await first.waitForURL(waitingUrl);
  await expect(first.getByRole('heading', { name: l.say('waitingRoom.heading') })).toBeVisible();
  await expect(placeShown(first, l, 1)).toBeVisible();
  await expect(first.getByRole('status').getByText(l.say('waitingRoom.estimateUnknown'))).toBeVisible();

  // The others follow a checkout link: without a pass, checkout sends them to the line, behind the first.
  for (const [page, place] of [
    [second, 2],
    [third, 3],
  ] as const) {
    await page.goto(`/${l.prefix}/order/confirm?listingId=${hot.listingId}&quantity=1`);
    await page.waitForURL(waitingUrl);
    await expect(placeShown(page, l, place)).toBeVisible();
  }
  expect(await seriousViolations(third)).toEqual([]);
  expect(await unnamedControls(third)).toEqual([]);

  // A reload keeps the place.
  await second.reload();
  await expect(placeShown(second, l, 2)).toBeVisible();

  // One is let through: the first page goes on to checkout by itself, the others move up a place.
  await steer(request, hot.sessionId, { admitNext: 1 });
  await first.waitForURL(/\/order\/confirm\?/);
  await expect(placeShown(second, l, 1)).toBeVisible();
  await expect(placeShown(third, l, 2)).toBeVisible();
  await buy(first, l, hot);
  await expect(second).toHaveURL(waitingUrl);

  await steer(request, hot.sessionId, { admitNext: 1 });
  await second.waitForURL(/\/order\/confirm\?/);
  await expect(placeShown(third, l, 1)).toBeVisible();
  await buy(second, l, hot);
  await expect(third).toHaveURL(waitingUrl);

  await steer(request, hot.sessionId, { admitNext: 1 });
  await buy(third, l, hot);

  await Promise.all(contexts.map((context) => context.close()));
});

test('a buyer in line for a sold-out hot on-sale is told every ticket is taken, keeps the place, and goes through when one comes back', async ({
  browser,
  request,
}, testInfo) => {
  const l = localeOf('zh-HK');
  const {
    sessionId,
    tiers: [last],
  } = await copiedShow(15, 32, 1, [{ prefix: 'Last', highDemand: 0 }]);
  await fixture('set-listing-stock', { listingId: last.listingId, quantityAvailable: 0 });
  // At a thousand a second the line would let this buyer through at once, were anything left.
  await steer(request, sessionId, { admissionsPerMinute: 60_000 });
  const context = await browser.newContext({ ...testInfo.project.use });
  const page = await buyerPhone(context, testInfo, 'sold-out-line');
  await page.goto(`/${l.prefix}/waiting-room/${sessionId}?listingId=${last.listingId}&quantity=1`);
  await expect(placeShown(page, l, 1)).toBeVisible();
  await expect(page.getByRole('status').getByText(l.say('waitingRoom.soldOut'))).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // A ticket comes back (as when a buyer cancels): the page, asking by itself, goes on to checkout.
  await fixture('set-listing-stock', { listingId: last.listingId, quantityAvailable: 1 });
  await page.waitForURL(new RegExp(`/${l.prefix}/order/confirm\\?listingId=${last.listingId}&quantity=1(&|$)`));
  await steer(request, sessionId, { admissionsPerMinute: 0 });
  await context.close();
});

test('a buyer joins an upcoming hot on-sale from its activity page and is told the line is drawn at the opening', async ({
  page,
}, testInfo) => {
  const l = localeOf('zh-HK');
  const upcoming = await fixture('upcoming-high-demand-session', {});
  expect(upcoming, 'the demo seed’s upcoming high-demand session').toBeDefined();
  const hot = upcoming!;
  await ownClientAddress(page.context(), testInfo);
  await signUpByEmail(page.request, 'queue-early');

  await page.goto(`/${l.prefix}/activity/${hot.activityId}`);
  await expect(page.getByText(l.say('waitingRoom.joinHint'))).toBeVisible();
  await page.getByRole('link', { name: l.say('waitingRoom.join') }).click();
  await page.waitForURL(new RegExp(`/${l.prefix}/waiting-room/${hot.sessionId}$`));
  await expect(page.getByRole('heading', { name: l.say('waitingRoom.heading') })).toBeVisible();
  const drawnAtOpening = page.getByRole('status').getByText(l.say('waitingRoom.early', { time: formatOrderTime(hot.opensAt, l.prefix) }));
  await expect(drawnAtOpening).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  expect(await unnamedControls(page)).toEqual([]);

  // Coming back keeps the account in the early group, waiting for the draw.
  await page.getByRole('link', { name: l.say('waitingRoom.refresh') }).click();
  await page.waitForURL(new RegExp(`/${l.prefix}/waiting-room/${hot.sessionId}$`));
  await expect(drawnAtOpening).toBeVisible();
});

test('a buyer of a tier on sale alone queues in that tier’s line and buys; the session’s other tier sells without one', async ({
  browser,
  request,
}, testInfo) => {
  test.slow();
  const l = english;
  const hot = await tierOnSale();
  await steer(request, hot.sessionId, { admissionsPerMinute: 0 }, hot.tierId);
  const context = await browser.newContext({ ...testInfo.project.use });
  const page = await buyerPhone(context, testInfo, 'tier-queue');

  // Buy of the VIP tier on the activity page goes to the tier's line, which says whose line it is.
  const detail = (await detailOf(page.request, hot.activityId))!;
  const session = detail.sessions.find((one) => one.id === hot.sessionId)!;
  const vip = session.tiers.find((tier) => tier.id === hot.tierId)!;
  const { ticketGroupInfoList } = await offerOf(page.request, hot.activityId, vip.id, { language: l.language, currency: 'HKD' });
  const price = ticketGroupInfoList[0].salePriceView;
  await page.goto(`/${l.prefix}/activity/${hot.activityId}`);
  await hydratedInView(page, 'TicketPicker');
  await page.getByRole('radio', { name: session.label, exact: true }).check();
  await page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(hot.tierName)}`) }).check();
  await page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(l.say('detail.picker.each', { price }))}`) }).check();
  await page.getByRole('button', { name: l.say('detail.picker.buy') }).click();
  await page.waitForURL(
    new RegExp(`/${l.prefix}/waiting-room/${hot.sessionId}\\?tier=${hot.tierId}&listingId=${hot.listingId}&quantity=1$`),
  );
  await expect(page.getByText(l.say('waitingRoom.tierLine', { tier: hot.tierName }))).toBeVisible();
  await expect(placeShown(page, l, 1)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  // Let through, the page goes on to checkout by itself, with the tier's pass, and the buyer pays.
  await steer(request, hot.sessionId, { admitNext: 1 }, hot.tierId);
  await page.waitForURL(/\/order\/confirm\?/);
  await buy(page, l, hot);

  // The session's other tier: its checkout link opens checkout itself, no line.
  await page.goto(`/${l.prefix}/order/confirm?listingId=${hot.plainListingId}&quantity=1`);
  await buy(page, l, { ...hot, listingId: hot.plainListingId });
  await context.close();
});
