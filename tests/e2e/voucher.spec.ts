/**
 * The voucher on a phone: a buyer's order is paid on the sandbox's hosted page, its seller issues
 * the e-tickets through the API (the code path of `npm run demo:fulfil`: email code from the dev
 * outbox, then the fulfil call), and the voucher link of the order detail shows every ticket's
 * entry QR code and number, and still does after the network goes away and the page is reloaded.
 * A link with a wrong key, or none, is the 404 page. The buyer is new; the listing is found
 * through the API.
 */
import { expect, test, type Page } from '@playwright/test';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { activityIds, eTicketListings, fulfilAsOrderSeller, orderOf, payInSandbox, placeOrder, seriousViolations } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

/** Activities scanned for a listing, from the end of the seed's range where fewer journeys buy. */
const VOUCHER_ACTIVITY_IDS = activityIds(1299, 1000);

/** Places an order for two e-tickets at the quoted total and pays it on the sandbox's hosted page. */
async function paidOrder(page: Page): Promise<OrderDetail> {
  const [listing] = await eTicketListings(page.request, { ids: VOUCHER_ACTIVITY_IDS, quantity: 2, spare: 2 });
  const order = await placeOrder(page.request, listing, 'visa');
  await payInSandbox(page, order);
  return order;
}

/** Every ticket's QR code (an image named after the ticket) and number are on the page. */
async function expectTickets(page: Page, detail: OrderDetail): Promise<void> {
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: detail.activity.name })).toBeVisible();
  for (const ticket of detail.tickets) {
    await expect(main.getByRole('img', { name: `Entry QR code of ticket ${ticket.ticketNo}` })).toBeVisible();
    await expect(main.getByText(ticket.ticketNo, { exact: true })).toBeVisible();
  }
  await expect(main.getByText('Valid', { exact: true })).toHaveCount(detail.tickets.length);
}

test('the voucher shows each entry QR code and ticket number, and still does offline', async ({ page, context, baseURL }) => {
  await signUpByEmail(page.request, 'voucher');
  const order = await paidOrder(page);
  expect((await orderOf(page.request, order.id)).status).toBe('pending_ticketing');

  const fulfilled = await fulfilAsOrderSeller(order.orderNo);
  expect(fulfilled.status).toBe('pending_receipt');
  const detail = await orderOf(page.request, order.id);
  expect(detail.tickets).toHaveLength(2);
  expect(detail.voucherUrl).toMatch(/^\/voucher\?order=\d+&key=/);

  const response = await page.goto(detail.voucherUrl!);
  expect(response?.status()).toBe(200);
  await expectTickets(page, detail);
  expect(await seriousViolations(page)).toEqual([]);
  // The page says when its offline copy is saved; only then is going offline a fair test.
  await expect(page.getByRole('status')).toHaveText('Saved on this device: this voucher opens without a connection.');

  await context.setOffline(true);
  await page.reload();
  await expectTickets(page, detail);
  await context.setOffline(false);

  // The same order with a key that was not signed for it opens nothing.
  const key = new URL(detail.voucherUrl!, baseURL).searchParams.get('key')!;
  const forged = await page.goto(`/voucher?order=${order.orderNo}&key=${key.slice(1)}${key[0] === 'A' ? 'B' : 'A'}`);
  expect(forged?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
  await expect(page.getByRole('img', { name: /Entry QR code/ })).toHaveCount(0);
});

test('a voucher link without a valid key is the 404 page, in the page language', async ({ page }) => {
  const links = [
    { path: '/en/voucher', heading: 'Page not found' },
    { path: '/zh-HK/voucher?order=20260101000000000&key=not-a-key', heading: '找不到頁面' },
  ];
  for (const { path: link, heading } of links) {
    const response = await page.goto(link);
    expect(response?.status(), link).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  }
});
