/**
 * The rotating entry code on a phone: a buyer pays for two e-tickets and the seller
 * issues them; the voucher is saved on the device, the network goes away, and the code on the
 * voucher changes as the page's clock moves on (the test drives the clock: no waiting 15 real
 * seconds). At the door, the seller's gate page refuses a code captured earlier (a screenshot) and
 * admits the live one once. Then the door device loses its signal too: it decides from the tickets
 * it synced (refusing the old code, admitting the live one once), opens again after a reload
 * without signal, and uploads that admission when the signal is back.
 */
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { ENTRY_CODE_STEP_SECONDS } from '../../src/lib/config/gate.ts';
import { currentEntryCode, entryPayload } from '../../src/lib/domain/entry-code.ts';
import type { Voucher } from '../../src/lib/services/orders/vouchers.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import {
  activityIds,
  detailOf,
  eTicketListings,
  fulfilAsOrderSeller,
  hydrated,
  localeOf,
  orderOf,
  payInSandbox,
  placeOrder,
  seriousViolations,
  signInAsOrderSeller,
  type Listing,
} from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

/** Activities from the low end of the seed's range, where the voucher spec (scanning down from 1299) rarely reaches. */
const ENTRY_ACTIVITY_IDS = activityIds(1000, 1099);
const STEP_MS = ENTRY_CODE_STEP_SECONDS * 1000;

const en = localeOf('en');

/**
 * The seller's door for the session of `listing`: a browser of its own, signed in as the seller of
 * `order`, on the gate page with the scanner hydrated; and the session's id.
 */
async function sellersDoor(page: Page, browser: Browser, testInfo: TestInfo, listing: Listing, order: { orderNo: string }) {
  const session = (await detailOf(page.request, listing.activityId))!.sessions.find((s) =>
    s.tiers.some((tier) => tier.id === listing.tierId),
  )!;
  const doorContext = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(doorContext, testInfo);
  const door = await doorContext.newPage();
  await signInAsOrderSeller(door.request, order.orderNo);
  await door.goto(`/en/gate?session=${session.id}`);
  await hydrated(door, 'GateScanner');
  return { doorContext, door, sessionId: session.id };
}

/** The entry code a voucher page shows for a ticket: the value of the ticket's "Entry code" term. */
function shownCode(page: Page, ticketNo: string) {
  const ticket = page.getByRole('main').getByRole('listitem').filter({ hasText: ticketNo });
  return ticket.getByRole('definition').filter({ hasText: /^\d{6}$/ });
}

test('the voucher code changes offline; the gate admits the live code once and refuses an older one', async ({
  page,
  context,
  browser,
}, testInfo) => {
  test.slow();
  await signUpByEmail(page.request, 'entry-code');
  const [listing] = await eTicketListings(page.request, { ids: ENTRY_ACTIVITY_IDS, quantity: 2, spare: 2 });
  const order = await placeOrder(page.request, listing, 'visa');
  await payInSandbox(page, order);
  expect((await fulfilAsOrderSeller(order.orderNo)).status).toBe('pending_receipt');
  const detail = await orderOf(page.request, order.id);
  const voucherApi = await page.request.get(`/api${detail.voucherUrl!.replace('/voucher?', '/v1/vouchers?')}`);
  const [first, second] = ((await voucherApi.json()).data as Voucher).tickets;

  // The door: the seller's gate page for the session, synced while it has signal.
  const { doorContext, door, sessionId } = await sellersDoor(page, browser, testInfo, listing, order);
  await expect(door.getByText(/^Ready without signal: \d+ tickets? synced at/)).toBeVisible();
  await expect(door.getByText(en.say('gate.offlineReady'))).toBeVisible();
  expect(await seriousViolations(door)).toEqual([]);

  // The phone's clock is the test's. The voucher is saved on the device, then the network goes.
  await page.clock.install({ time: Date.now() - 10 * 60_000 });
  await page.goto(detail.voucherUrl!);
  await expect(page.getByRole('status')).toHaveText(en.say('voucher.offlineReady'));
  await expect(page.getByText(en.say('voucher.codeHint'), { exact: false })).toBeVisible();
  await context.setOffline(true);
  await page.reload();

  // Three steps ago: the code a screenshot taken then would show.
  const nowStep = Math.floor(Date.now() / STEP_MS);
  const earlier = (nowStep - 3) * STEP_MS + 2_000;
  await page.clock.pauseAt(earlier);
  await page.clock.runFor(1_000);
  const olderCode = await currentEntryCode(first.entrySecret!, earlier);
  await expect(shownCode(page, first.ticketNo)).toHaveText(olderCode);
  const qr = page.getByRole('img', { name: en.say('voucher.qrLabel', { ticketNo: first.ticketNo }) });
  const olderQr = await qr.locator('path').getAttribute('d');
  await expect(page.getByText(/^New code in \d+ s$/).first()).toBeVisible();

  // 45 seconds on, still offline: the code and its QR code have changed, three times over.
  await page.clock.runFor(3 * STEP_MS);
  const liveCode = await currentEntryCode(first.entrySecret!, earlier + 1_000 + 3 * STEP_MS);
  expect(liveCode).not.toBe(olderCode);
  await expect(shownCode(page, first.ticketNo)).toHaveText(liveCode);
  expect(await qr.locator('path').getAttribute('d')).not.toBe(olderQr);
  const liveSecond = await shownCode(page, second.ticketNo).textContent();

  // At the door: the older code is refused, the live one admits once.
  const field = door.getByRole('textbox', { name: en.say('gate.code') });
  const verdict = door.getByRole('status');
  const scan = async (text: string, expected: string) => {
    await field.fill(text);
    await field.press('Enter');
    await expect(verdict).toContainText(expected);
    await expect(field).toHaveValue('');
  };
  const expired = (ticketNo: string) => en.say('error.entry_code_expired', { ticketNo });
  const alreadyIn = (ticketNo: string) => en.say('error.ticket_already_used', { ticketNo, time: '' }).split(' at ')[0];
  await scan(entryPayload(first.ticketNo, olderCode), expired(first.ticketNo));
  await scan(entryPayload(first.ticketNo, liveCode), en.say('gate.admitted'));
  await expect(verdict).toContainText(en.say('gate.ticket', { ticketNo: first.ticketNo, tier: detail.tier.name }));
  await scan(entryPayload(first.ticketNo, liveCode), alreadyIn(first.ticketNo));

  // The door loses its signal as well: it decides alone from what it synced, and uploads later.
  await doorContext.setOffline(true);
  const olderSecond = await currentEntryCode(second.entrySecret!, earlier);
  await scan(entryPayload(second.ticketNo, olderSecond), expired(second.ticketNo));
  await expect(door.getByText(en.say('gate.offline'))).toBeVisible();
  await scan(entryPayload(second.ticketNo, liveSecond!), en.say('gate.admittedOffline'));
  await expect(door.getByText(en.say('gate.pending', { count: 1 }))).toBeVisible();
  await scan(entryPayload(second.ticketNo, liveSecond!), alreadyIn(second.ticketNo));
  // The page opens again without signal (saved on the device), still knowing what it admitted.
  await door.reload();
  await hydrated(door, 'GateScanner');
  await expect(door.getByText(en.say('gate.pending', { count: 1 }))).toBeVisible();
  await scan(entryPayload(second.ticketNo, liveSecond!), alreadyIn(second.ticketNo));
  await scan(entryPayload(first.ticketNo, liveCode), alreadyIn(first.ticketNo));

  // Back online, the staff press "Sync tickets now": the admission goes up, the fresh list comes down.
  await doorContext.setOffline(false);
  await door.getByRole('button', { name: en.say('gate.sync.now') }).click();
  await expect(door.getByText(en.say('gate.uploaded'))).toBeVisible();
  await expect(door.getByText(en.say('gate.pending', { count: 1 }))).toHaveCount(0);
  // The server holds the ticket admitted: looking it up for an ID check says so.
  const recorded = await door.request.get(`/api/v1/gate/sessions/${sessionId}/tickets/${second.ticketNo}`);
  expect(((await recorded.json()) as { errorCode: string }).errorCode).toBe('ticket_already_used');
  await doorContext.close();
  await context.setOffline(false);
});

test('door staff admit by ticket number after checking a photo ID, once', async ({ page, browser }, testInfo) => {
  await signUpByEmail(page.request, 'entry-id');
  const [listing] = await eTicketListings(page.request, { ids: ENTRY_ACTIVITY_IDS, quantity: 1, spare: 2 });
  const order = await placeOrder(page.request, listing, 'visa');
  await payInSandbox(page, order);
  await fulfilAsOrderSeller(order.orderNo);
  const [ticket] = (await orderOf(page.request, order.id)).tickets;

  const { doorContext, door } = await sellersDoor(page, browser, testInfo, listing, order);
  const field = door.getByRole('textbox', { name: en.say('gate.code') });
  await field.fill(ticket.ticketNo);
  await field.press('Enter');
  const check = door.getByRole('region', { name: en.say('gate.idCheck.heading', { ticketNo: ticket.ticketNo }) });
  await expect(check).toContainText(en.say('gate.idCheck.noName'));
  expect(await seriousViolations(door)).toEqual([]);
  await check.getByRole('button', { name: en.say('gate.idCheck.admit') }).click();
  await expect(door.getByRole('status')).toContainText(en.say('gate.admitted'));
  await expect(check).toHaveCount(0);

  await field.fill(ticket.ticketNo);
  await field.press('Enter');
  await expect(door.getByRole('status')).toContainText(
    en.say('error.ticket_already_used', { ticketNo: ticket.ticketNo, time: '' }).split(' at ')[0],
  );
  await doorContext.close();
});
