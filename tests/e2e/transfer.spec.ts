/**
 * Ticket transfer on a phone: buyer A buys two e-tickets, opens "Sell / transfer"
 * from the order, is told what is wrong with a bad price and a missing agreement, lists one ticket,
 * changes its price in My Listings; buyer B finds that listing among the tier's offers on the detail
 * page and buys it through the normal checkout; A's voucher then shows that ticket as transferred
 * and B's shows theirs valid, and A's proceeds are recorded. At the gate, the seller adds a door
 * staff member, who admits B's ticket once and turns away the code A's voucher still computes from the secret it held before the sale. A lists the other ticket and
 * withdraws it. Each buyer signs up afresh; the words are the pages' own catalogue texts.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import type { ActivityDetail } from '../../src/lib/services/catalogue/activity-detail.ts';
import type { TicketGroupInfo } from '../../src/lib/services/catalogue/ticket-offers.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import type { TransferListingView } from '../../src/lib/services/marketplace/transfer-views.ts';
import type { Voucher } from '../../src/lib/services/orders/vouchers.ts';
import { currentEntryCode, entryPayload } from '../../src/lib/domain/entry-code.ts';
import { formatMoney } from '../../src/lib/domain/money.ts';
import { transferSplit } from '../../src/lib/domain/transfer.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import {
  activityIds,
  buyOnDetailPage,
  escapeRegExp,
  findListing,
  fulfilAsOrderSeller,
  hydrated,
  hydratedInView,
  localeOf,
  offerOf,
  orderOf,
  payInSandbox,
  placeOrder,
  seriousViolations,
  signInAsOrderSeller,
  unnamedControls,
  confirmETicketByCard,
} from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

/** Activities no other spec counts stock on. */
const TRANSFER_ACTIVITY_IDS = activityIds(1199, 1100);

const en = localeOf('en');

/** A's listing as the API lists it ("My listings"), newest first. */
async function myListings(page: Page): Promise<TransferListingView[]> {
  const response = await page.request.get('/api/v1/transfer-listings', { headers: { language: 'en' } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as TransferListingView[];
}

/** Each ticket of a voucher with its entry secret (null once the ticket cannot admit), read through the voucher's signed link. */
async function voucherTickets(request: APIRequestContext, voucherUrl: string): Promise<Voucher['tickets']> {
  const response = await request.get(`/api${voucherUrl.replace('/voucher?', '/v1/vouchers?')}`);
  expect(response.status()).toBe(200);
  return ((await response.json()).data as Voucher).tickets;
}

/** The state shown for one ticket on a voucher page, found by its number. */
function voucherTicket(page: Page, ticketNo: string) {
  return page.getByRole('main').getByRole('listitem').filter({ hasText: ticketNo });
}

test('A lists one of two tickets, B buys it through checkout, and the ticket changes hands', async ({ page, browser }, testInfo) => {
  test.slow();
  // Buyer A: two e-tickets of a tier's listing that the detail page preselects.
  await signUpByEmail(page.request, 'transfer-a');
  const pick = await findListing(
    page.request,
    TRANSFER_ACTIVITY_IDS,
    'en',
    (activity: ActivityDetail) => !activity.realNameRequired,
    (listing: TicketGroupInfo) => listing.deliveryTypes.includes('e_ticket') && listing.minQuantity === 1 && listing.maxQuantity >= 2,
  );
  const tier = pick.activity.sessions.find((session) => session.hasTicket)!.tiers.find((t) => t.hasTicket)!;
  const bought = await placeOrder(
    page.request,
    { id: pick.listing.ticketGroup.id, quantity: 2, activityId: pick.activity.id, tierId: tier.id },
    'visa',
  );
  await payInSandbox(page, bought);
  expect((await fulfilAsOrderSeller(bought.orderNo)).status).toBe('pending_receipt');
  const ticketsBeforeSale = await voucherTickets(page.request, (await orderOf(page.request, bought.id)).voucherUrl!);

  // The order offers "Sell / transfer".
  await page.goto(`/en/orders/${bought.id}`);
  await page.getByRole('link', { name: en.say('transfer.order.sellNamed', { orderNo: bought.orderNo }) }).click();
  await page.waitForURL(`/en/orders/${bought.id}/sell`);
  await expect(page.getByRole('heading', { level: 1, name: en.say('title.orderTransferPage') })).toBeVisible();
  await hydrated(page, 'TransferForm');
  expect(await unnamedControls(page)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);

  // Bad input: no price, an absurd one, no agreement. Each says what is wrong and keeps the rest.
  await page.getByRole('combobox', { name: en.say('transfer.sell.currency') }).selectOption('HKD');
  const price = page.getByRole('textbox', { name: en.say('transfer.sell.price') });
  await price.fill('abc');
  await page.getByRole('button', { name: en.say('transfer.sell.publish') }).click();
  await expect(page.getByText(en.say('transfer.sell.priceInvalid'))).toBeVisible();
  await price.fill('1');
  await page.getByRole('button', { name: en.say('transfer.sell.publish') }).click();
  await expect(page.getByText(/^The price per ticket must be between HK\$[\d,.]+ and HK\$[\d,.]+\.$/)).toBeVisible();
  await expect(price).toBeFocused();

  // A price of 137% of face value, in HKD, with cents no seeded listing has.
  const { ticketGroupInfoList: before } = await offerOf(page.request, pick.activity.id, tier.id, { language: 'en', currency: 'HKD' });
  const faceHkd = before.find((group) => group.ticketGroup.id === pick.listing.ticketGroup.id)!.ticketGroup.originPrice;
  const listedPrice = `${Math.round((faceHkd * 1.37) / 100)}.37`;
  await price.fill(listedPrice);
  // What the money comes to, as the buyer's checkout and the seller's payout will compute it.
  const split = transferSplit(Number(listedPrice.replace('.', '')), 1);
  const hkd = (amount: number) => formatMoney({ amount, currency: 'HKD' }, 'en', 2);
  const summary = page.getByRole('region', { name: en.say('transfer.sell.summary') });
  await expect(summary).toContainText(`${en.say('transfer.sell.buyerPays')}${hkd(split.buyerPays)}`);
  await expect(summary).toContainText(`${en.say('transfer.sell.sellerReceives')}${hkd(split.sellerReceives)}`);
  await page.getByRole('button', { name: en.say('transfer.sell.publish') }).click();
  await expect(page.getByText(en.say('error.transfer_agreement_required'))).toBeVisible();
  await expect(price).toHaveValue(listedPrice);
  await page.getByRole('checkbox', { name: en.say('transfer.sell.accept') }).check();
  await page.getByRole('button', { name: en.say('transfer.sell.publish') }).click();

  // My Listings: one ticket on sale; its price changed once more.
  await page.waitForURL('/en/myListings');
  await expect(page.getByRole('heading', { level: 1, name: en.say('title.myListingsPage') })).toBeVisible();
  const card = page.getByRole('listitem').filter({ hasText: pick.activity.name });
  await expect(card.getByText(en.say('transfer.mine.status.active'), { exact: true })).toBeVisible();
  await expect(card).toContainText(en.say('transfer.mine.counts', { total: 1, sold: 0, available: 1 }));
  await hydratedInView(page, 'ListingControls');
  await card.getByRole('button', { name: en.say('transfer.mine.changePriceNamed', { name: pick.activity.name }) }).click();
  const repriced = `${Math.round((faceHkd * 1.41) / 100)}.41`;
  await card.getByRole('textbox', { name: en.say('transfer.mine.newPrice') }).fill(repriced);
  await card.getByRole('button', { name: en.say('transfer.mine.save') }).click();
  await expect(card).toContainText(`HK$${Number(repriced).toLocaleString('en')}`);
  expect(await seriousViolations(page)).toEqual([]);

  const [listing] = await myListings(page);
  expect(listing).toMatchObject({ sourceOrderId: bought.id, status: 'active', quantityTotal: 1, price: { currency: 'HKD' } });
  // The order now shows that ticket as listed, and still offers the other one.
  const listedOrder = await orderOf(page.request, bought.id);
  expect(listedOrder.tickets.filter((ticket) => ticket.listed)).toHaveLength(1);
  expect(listedOrder.transferable).toBe(1);

  // Buyer B, in a browser of their own, finds it on the detail page and buys it through checkout.
  const contextB = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(contextB, testInfo);
  const pageB = await contextB.newPage();
  await signUpByEmail(pageB.request, 'transfer-b');
  const { ticketGroupInfoList: offered } = await offerOf(pageB.request, pick.activity.id, tier.id, { language: 'en', currency: 'HKD' });
  const resale = offered.find((group) => group.ticketGroup.id === listing.id);
  expect(resale, 'the transfer listing among the tier offers').toBeDefined();
  expect(offered.filter((group) => group.salePriceView === resale!.salePriceView)).toHaveLength(1);
  await buyOnDetailPage(pageB, en, { activity: pick.activity, listing: resale!, quantity: 1 });
  await pageB.waitForURL(new RegExp(`/en/order/confirm\\?.*listingId=${listing.id}`));
  const orderB = await confirmETicketByCard(pageB, en);
  await payInSandbox(pageB, orderB);

  // Paid: B's ticket is issued at once, valid on B's voucher.
  const ticketedB: OrderDetail = await orderOf(pageB.request, orderB.id);
  expect(ticketedB.status).toBe('pending_receipt');
  expect(ticketedB.tickets).toHaveLength(1);
  await pageB.goto(ticketedB.voucherUrl!);
  await expect(voucherTicket(pageB, ticketedB.tickets[0].ticketNo)).toContainText(en.say('voucher.state.valid'));
  await contextB.close();

  // A's voucher: the sold ticket is transferred, the other still valid.
  const afterSale = await orderOf(page.request, bought.id);
  const transferred = afterSale.tickets.filter((ticket) => ticket.status === 'transferred');
  const kept = afterSale.tickets.filter((ticket) => ticket.status === 'valid');
  expect(transferred).toHaveLength(1);
  expect(kept).toHaveLength(1);
  await page.goto(afterSale.voucherUrl!);
  await expect(voucherTicket(page, transferred[0].ticketNo)).toContainText(en.say('voucher.state.transferred'));
  await expect(voucherTicket(page, kept[0].ticketNo)).toContainText(en.say('voucher.state.valid'));

  // At the gate: the seller adds a door staff member, who admits B's new ticket once and turns A's
  // resold one away. A kept the entry secret of the ticket from before the sale: the voucher no longer gives it.
  const [codeB] = await voucherTickets(page.request, ticketedB.voucherUrl!);
  const resold = ticketsBeforeSale.find((ticket) => ticket.ticketNo === transferred[0].ticketNo)!;
  expect(
    (await voucherTickets(page.request, afterSale.voucherUrl!)).find((ticket) => ticket.ticketNo === resold.ticketNo)!.entrySecret,
  ).toBeNull();
  const sessionId = pick.activity.sessions.find((session) => session.hasTicket)!.id;
  const sellerContext = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(sellerContext, testInfo);
  const seller = await sellerContext.newPage();
  await signInAsOrderSeller(seller.request, bought.orderNo);
  await seller.goto('/en/gate');
  await expect(seller.getByRole('link', { name: new RegExp(escapeRegExp(pick.activity.name)) }).first()).toBeVisible();
  await seller.goto(`/en/gate?session=${sessionId}`);
  await hydratedInView(seller, 'GateStaff');
  const doorContext = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(doorContext, testInfo);
  const staff = await doorContext.newPage();
  const door = await signUpByEmail(staff.request, 'door');
  const staffList = seller.getByRole('region', { name: en.say('gate.staff.heading') });
  await staffList.getByRole('textbox', { name: en.say('gate.staff.account') }).fill(door.email);
  await staffList.getByRole('button', { name: en.say('gate.staff.add') }).click();
  await expect(staffList.getByRole('listitem')).toContainText(door.email);
  expect(await seriousViolations(seller)).toEqual([]);
  await sellerContext.close();

  await staff.goto(`/en/gate?session=${sessionId}`);
  await hydrated(staff, 'GateScanner');
  expect(await seriousViolations(staff)).toEqual([]);
  // Door staff scan; they do not assign staff themselves.
  await expect(staff.getByRole('region', { name: en.say('gate.staff.heading') })).toHaveCount(0);
  const codeField = staff.getByRole('textbox', { name: en.say('gate.code') });
  const verdict = staff.getByRole('status');
  // What each voucher's QR code carries at the moment of the scan; A's comes from the secret A's voucher held before the sale.
  const scanOf = async (ticket: Voucher['tickets'][number]) =>
    entryPayload(ticket.ticketNo, await currentEntryCode(ticket.entrySecret!, Date.now()));
  for (const [typed, expected] of [
    [await scanOf(codeB), en.say('gate.admitted')],
    [await scanOf(codeB), en.say('error.ticket_already_used', { ticketNo: codeB.ticketNo, time: '' }).split(' at ')[0]],
    [await scanOf(resold), en.say('error.ticket_transferred', { ticketNo: resold.ticketNo })],
  ] as const) {
    await codeField.fill(typed);
    await codeField.press('Enter');
    await expect(verdict).toContainText(expected);
    await expect(codeField).toHaveValue('');
  }
  await doorContext.close();

  // A's listing is sold and the proceeds are recorded for payout after the event.
  await page.goto('/en/myListings');
  await expect(card.getByText(en.say('transfer.mine.status.sold_out'), { exact: true })).toBeVisible();
  const proceeds = page.getByRole('region', { name: en.say('transfer.payouts.title') });
  await expect(proceeds).toContainText(en.say('transfer.payouts.order', { orderId: orderB.id }));
  await expect(proceeds).toContainText(en.say('transfer.payouts.status.pending'));

  // A lists the ticket kept, then withdraws that listing.
  await page.goto(`/en/orders/${bought.id}/sell`);
  await hydrated(page, 'TransferForm');
  await page.getByRole('combobox', { name: en.say('transfer.sell.currency') }).selectOption('HKD');
  await page.getByRole('textbox', { name: en.say('transfer.sell.price') }).fill(listedPrice);
  await page.getByRole('checkbox', { name: en.say('transfer.sell.accept') }).check();
  await page.getByRole('button', { name: en.say('transfer.sell.publish') }).click();
  await page.waitForURL('/en/myListings');
  const newest = page.getByRole('listitem').filter({ hasText: pick.activity.name }).first();
  await expect(newest.getByText(en.say('transfer.mine.status.active'), { exact: true })).toBeVisible();
  await hydratedInView(page, 'ListingControls');
  await newest.getByRole('button', { name: en.say('transfer.mine.withdrawNamed', { name: pick.activity.name }) }).click();
  const dialog = page.getByRole('dialog', { name: en.say('transfer.mine.withdrawTitle') });
  await dialog.getByRole('button', { name: en.say('transfer.mine.withdraw'), exact: true }).click();
  await expect(newest.getByText(en.say('transfer.mine.status.withdrawn'), { exact: true })).toBeVisible();
  expect((await orderOf(page.request, bought.id)).transferable).toBe(1);
});

test("someone else's order has no Sell / transfer page, and an unpaid order cannot be listed", async ({ page }) => {
  await signUpByEmail(page.request, 'transfer-c');
  const pick = await findListing(
    page.request,
    TRANSFER_ACTIVITY_IDS,
    'en',
    (activity: ActivityDetail) => !activity.realNameRequired,
    (listing: TicketGroupInfo) => listing.deliveryTypes.includes('e_ticket'),
  );
  const tier = pick.activity.sessions.find((session) => session.hasTicket)!.tiers.find((t) => t.hasTicket)!;
  const unpaid = await placeOrder(page.request, {
    id: pick.listing.ticketGroup.id,
    quantity: pick.quantity,
    activityId: pick.activity.id,
    tierId: tier.id,
  });

  await page.goto(`/en/orders/${unpaid.id}`);
  await expect(page.getByRole('link', { name: new RegExp(escapeRegExp(en.say('transfer.order.sell'))) })).toHaveCount(0);
  await page.goto(`/en/orders/${unpaid.id}/sell`);
  await expect(page.getByRole('heading', { level: 2, name: en.say('transfer.sell.refused') })).toBeVisible();
  await expect(page.getByText(en.say('error.transfer_order_not_eligible'))).toBeVisible();
  await expect(page.getByRole('button', { name: en.say('transfer.sell.publish') })).toHaveCount(0);

  await signUpByEmail(page.request, 'transfer-d');
  const response = await page.goto(`/en/orders/${unpaid.id}/sell`);
  expect(response?.status()).toBe(404);
});
