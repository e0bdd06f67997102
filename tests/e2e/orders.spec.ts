/**
 * My Orders and order detail on a phone, in English and Traditional Chinese: a new buyer's empty
 * list, an order placed through the API showing under All and Pending Payment, found by its number
 * and by the show's name, its detail, cancelling it through the confirm prompt (and not cancelling
 * when the prompt is dismissed), the Cancelled tab, paging, and the quality budgets of both pages.
 * Every test signs up its own buyer and places its own orders, on listings found through the API.
 */
import { expect, test, type Page } from '@playwright/test';
import { ORDER_PAGE_SIZE } from '../../src/lib/config/orders.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import {
  activityIds,
  CHECKOUT_JS_BUDGET_KB,
  eTicketListings,
  firstLoadJsKb,
  fulfilAsOrderSeller,
  hydrated,
  orderOf,
  payInSandbox,
  placeOrder,
  postWithoutBody,
  seriousViolations,
  type Listing,
} from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

/** Later activities than the other journeys start from, so holds placed here rarely touch their listings. */
const ORDERS_ACTIVITY_IDS = activityIds(1150, 1500);

interface Labels {
  prefix: string;
  tabs: string;
  all: string;
  pendingPayment: string;
  cancelled: string;
  refunded: string;
  search: string;
  searchButton: string;
  noOrders: string;
  noMatch: (keyword: string) => string;
  orderNo: (orderNo: string) => string;
  details: (orderNo: string) => string;
  pay: (orderNo: string) => string;
  cancel: (orderNo: string) => string;
  cancelTitle: string;
  cancelYes: string;
  dismiss: string;
  cancelledByYou: string;
  timeLeft: RegExp;
  eTicket: string;
  totalPayment: string;
}

const english: Labels = {
  prefix: '/en',
  tabs: 'Order status',
  all: 'All',
  pendingPayment: 'Pending Payment',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
  search: 'Order number or show name',
  searchButton: 'Search',
  noOrders: 'No orders',
  noMatch: (keyword) => `No orders match “${keyword}”.`,
  orderNo: (orderNo) => `Order No. ${orderNo}`,
  details: (orderNo) => `Details of order ${orderNo}`,
  pay: (orderNo) => `Pay Now for order ${orderNo}`,
  cancel: (orderNo) => `Cancel Order ${orderNo}`,
  cancelTitle: 'Cancel this order?',
  cancelYes: 'Yes, cancel it',
  dismiss: 'Not now',
  cancelledByYou: 'Order was cancelled: you cancelled it.',
  timeLeft: /^Time left to pay: 1[45]:\d\d$/,
  eTicket: 'E-ticket',
  totalPayment: 'Total payment',
};

const traditional: Labels = {
  prefix: '/zh-HK',
  tabs: '訂單狀態',
  all: '全部',
  pendingPayment: '待付款',
  cancelled: '已取消',
  refunded: '已退款',
  search: '訂單編號或演出名稱',
  searchButton: '搜尋',
  noOrders: '暫無訂單',
  noMatch: (keyword) => `沒有符合「${keyword}」的訂單。`,
  orderNo: (orderNo) => `訂單編號 ${orderNo}`,
  details: (orderNo) => `詳情：訂單 ${orderNo}`,
  pay: (orderNo) => `立即付款：訂單 ${orderNo}`,
  cancel: (orderNo) => `取消訂單 ${orderNo}`,
  cancelTitle: '確定取消這張訂單？',
  cancelYes: '確定取消',
  dismiss: '暫不',
  cancelledByYou: '訂單已取消：由你取消。',
  timeLeft: /^剩餘付款時間：1[45]:\d\d$/,
  eTicket: '電子門票',
  totalPayment: '實付金額',
};

/** A listing with two tickets to spare beyond its smallest order. */
async function eTicketListing(page: Page): Promise<Listing> {
  return (await eTicketListings(page.request, { ids: ORDERS_ACTIVITY_IDS, spare: 2 }))[0];
}

for (const labels of [english, traditional]) {
  test.describe(`orders (${labels.prefix})`, () => {
    test('a new buyer sees the empty state, all seven tabs and an accessible page', async ({ page }) => {
      await signUpByEmail(page.request, 'orders-empty');
      await page.goto(`${labels.prefix}/orders`);
      await expect(page.getByText(labels.noOrders, { exact: true })).toBeVisible();
      const tabs = page.getByRole('navigation', { name: labels.tabs }).getByRole('link');
      await expect(tabs).toHaveCount(7);
      await expect(tabs.first()).toHaveAttribute('aria-current', 'page');
      expect(await seriousViolations(page)).toEqual([]);
      await expect(page.getByRole('main')).toHaveCount(1);

      // The last tab, chosen through the URL, is scrolled into the phone's view.
      await page.goto(`${labels.prefix}/orders?tab=refunded`);
      const refunded = page.getByRole('navigation', { name: labels.tabs }).getByRole('link', { name: labels.refunded });
      await expect(refunded).toHaveAttribute('aria-current', 'page');
      await expect(refunded).toBeInViewport({ ratio: 0.95 });
      await expect(page.getByText(labels.noOrders, { exact: true })).toBeVisible();
    });

    test('an order shows under All and Pending Payment, is found by number, opens, and cancels after the prompt', async ({ page }) => {
      await signUpByEmail(page.request, 'orders-cancel');
      const order = await placeOrder(page.request, await eTicketListing(page));
      const card = (scope: Page) => scope.getByRole('article', { name: new RegExp(labels.orderNo(order.orderNo)) });

      await page.goto(`${labels.prefix}/orders`);
      await expect(card(page)).toContainText(labels.pendingPayment);
      await expect(card(page).getByRole('link', { name: labels.pay(order.orderNo) })).toHaveAttribute(
        'href',
        `${labels.prefix}/order/${order.id}/pay`,
      );

      const tabs = page.getByRole('navigation', { name: labels.tabs });
      await tabs.getByRole('link', { name: labels.pendingPayment, exact: true }).click();
      await expect(page).toHaveURL(`${labels.prefix}/orders?tab=pending_payment`);
      await expect(card(page)).toBeVisible();

      await page.getByRole('searchbox', { name: labels.search }).fill(order.orderNo);
      await page.getByRole('button', { name: labels.searchButton }).click();
      await expect(page).toHaveURL(`${labels.prefix}/orders?tab=pending_payment&keyword=${order.orderNo}`);
      await expect(page.getByRole('article')).toHaveCount(1);
      await expect(page.getByRole('searchbox', { name: labels.search })).toHaveValue(order.orderNo);

      await card(page)
        .getByRole('link', { name: labels.details(order.orderNo) })
        .click();
      await page.waitForURL(`${labels.prefix}/orders/${order.id}`);
      await expect(page.getByRole('timer')).toHaveText(labels.timeLeft);
      await hydrated(page);

      // Dismissing the prompt changes nothing.
      await page.getByRole('button', { name: labels.cancel(order.orderNo) }).click();
      const prompt = page.getByRole('dialog', { name: labels.cancelTitle });
      await expect(prompt).toBeVisible();
      await prompt.getByRole('button', { name: labels.dismiss }).click();
      await expect(prompt).toBeHidden();
      await page.reload();
      await expect(page.getByRole('heading', { level: 2, name: labels.pendingPayment })).toBeVisible();

      await hydrated(page);
      await page.getByRole('button', { name: labels.cancel(order.orderNo) }).click();
      await prompt.getByRole('button', { name: labels.cancelYes }).click();
      await expect(page.getByRole('heading', { level: 2, name: labels.cancelled, exact: true })).toBeVisible();
      await expect(page.getByText(labels.cancelledByYou)).toBeVisible();
      await expect(page.getByRole('button', { name: labels.cancel(order.orderNo) })).toHaveCount(0);
      await expect(page.getByRole('timer')).toHaveCount(0);

      await page.goto(`${labels.prefix}/orders?tab=cancelled`);
      await expect(page.getByRole('navigation', { name: labels.tabs }).getByRole('link', { name: labels.cancelled })).toHaveAttribute(
        'aria-current',
        'page',
      );
      await expect(card(page)).toContainText(labels.cancelled);
      await page.goto(`${labels.prefix}/orders?tab=pending_payment`);
      await expect(page.getByText(labels.noOrders, { exact: true })).toBeVisible();
    });

    test('the detail shows the order, show, tier, delivery and cost, and both pages pass axe within the JS budget', async ({ page }) => {
      await signUpByEmail(page.request, 'orders-detail');
      const order = await placeOrder(page.request, await eTicketListing(page));
      const listKb = await firstLoadJsKb(page, `${labels.prefix}/orders`);
      expect(await seriousViolations(page)).toEqual([]);

      const detailKb = await firstLoadJsKb(page, `${labels.prefix}/orders/${order.id}`);
      console.log(`JS orders ${labels.prefix}: list ${listKb.toFixed(1)} KB, detail ${detailKb.toFixed(1)} KB gzip`);
      expect(listKb).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET_KB);
      expect(detailKb).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET_KB);
      expect(await seriousViolations(page)).toEqual([]);
      await expect(page.getByRole('main')).toHaveCount(1);

      const detail = await orderOf(page.request, order.id, labels.prefix.slice(1));
      const main = page.getByRole('main');
      await expect(main.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(main.getByRole('link', { name: detail.activity.name })).toHaveAttribute(
        'href',
        `${labels.prefix}/activity/${detail.activity.id}`,
      );
      for (const text of [
        detail.orderNo,
        detail.session.label,
        detail.activity.venueName,
        detail.tier.name,
        detail.tier.faceValue.formatted,
        labels.eTicket,
        detail.allInUnitPrice.formatted,
        detail.cost.formatted.allInTickets,
        detail.cost.formatted.serviceFee,
        detail.cost.formatted.total,
        detail.ticketProvider,
      ]) {
        await expect(main, text).toContainText(text);
      }
      const total = main.locator('dt', { hasText: labels.totalPayment });
      await expect(total.locator('xpath=following-sibling::dd[1]')).toHaveText(detail.cost.formatted.total);
    });
  });
}

test('a search by the show name finds the order, another word finds none, and the search round-trips through the URL', async ({ page }) => {
  await signUpByEmail(page.request, 'orders-search');
  const order = await placeOrder(page.request, await eTicketListing(page));
  await page.goto(`/en/orders?keyword=${encodeURIComponent(order.activity.name)}`);
  await expect(page.getByRole('article', { name: new RegExp(order.orderNo) })).toBeVisible();
  await expect(page.getByRole('searchbox', { name: english.search })).toHaveValue(order.activity.name);

  await page.getByRole('searchbox', { name: english.search }).fill('zzqx no such show');
  await page.getByRole('button', { name: english.searchButton }).click();
  await expect(page.getByText(english.noMatch('zzqx no such show'))).toBeVisible();
  await page.getByRole('link', { name: 'Clear search' }).click();
  await page.waitForURL('/en/orders');
  await expect(page.getByRole('article')).toHaveCount(1);
});

test('more orders than a page hold are paged through links that keep the tab', async ({ page }) => {
  await signUpByEmail(page.request, 'orders-pages');
  // One page and one more, each cancelled before the next is placed: an account holds only so many unpaid
  // tickets, and the stock goes back for anyone else.
  const listings = await eTicketListings(page.request, { ids: ORDERS_ACTIVITY_IDS, spare: 3, count: 6 });
  const placed: OrderDetail[] = [];
  for (let i = 0; i <= ORDER_PAGE_SIZE; i++) {
    const order = await placeOrder(page.request, listings[i % listings.length]);
    expect((await postWithoutBody(page.request, `/api/v1/orders/${order.id}/cancel`)).status()).toBe(200);
    placed.push(order);
  }

  await page.goto('/en/orders?tab=cancelled');
  await expect(page.getByRole('article')).toHaveCount(ORDER_PAGE_SIZE);
  // Newest first: the first order placed is the one left for page 2.
  await expect(page.getByRole('article').first()).toContainText(placed.at(-1)!.orderNo);
  const pager = page.getByRole('navigation', { name: 'Pages' });
  await expect(pager).toContainText('Page 1 of 2');
  await pager.getByRole('link', { name: 'Next page' }).click();
  await expect(page).toHaveURL('/en/orders?tab=cancelled&page=2');
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('article')).toContainText(placed[0].orderNo);
  await pager.getByRole('link', { name: 'Previous page' }).click();
  await expect(page).toHaveURL('/en/orders?tab=cancelled');
});

test("someone else's order, a missing one and a malformed id are the 404 page", async ({ page, browser }, testInfo) => {
  await signUpByEmail(page.request, 'orders-owner');
  const order = await placeOrder(page.request, await eTicketListing(page));
  expect((await page.goto(`/en/orders/${order.id}`))?.status()).toBe(200);
  expect((await page.goto('/en/orders/2147483647'))?.status()).toBe(404);
  expect((await page.goto('/en/orders/12abc'))?.status()).toBe(404);

  const stranger = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  await ownClientAddress(stranger, testInfo);
  const strangerPage = await stranger.newPage();
  await signUpByEmail(strangerPage.request, 'orders-stranger');
  expect((await strangerPage.goto(`/en/orders/${order.id}`))?.status()).toBe(404);
  await stranger.close();
});

test('a paid order the seller ticketed shows its tickets and voucher, and Confirm Receipt completes it after the prompt', async ({
  page,
}) => {
  await signUpByEmail(page.request, 'orders-receipt');
  const order = await placeOrder(page.request, await eTicketListing(page));
  await payInSandbox(page, order);

  await page.goto('/en/orders?tab=pending_ticketing');
  const card = page.getByRole('article', { name: new RegExp(order.orderNo) });
  await expect(card).toContainText('Pending Ticketing');
  await expect(card.getByRole('button')).toHaveCount(0);

  const fulfilled = await fulfilAsOrderSeller(order.orderNo);
  const ticketNos = fulfilled.tickets.map((ticket) => ticket.ticketNo);
  expect(ticketNos.length).toBe(order.quantity);

  await page.goto(`/en/orders/${order.id}`);
  await expect(page.getByRole('heading', { level: 2, name: 'Pending Receipt' })).toBeVisible();
  const tickets = page.getByRole('region', { name: 'Tickets' });
  for (const ticketNo of ticketNos) await expect(tickets).toContainText(ticketNo);
  await expect(tickets).toContainText('Valid');
  await expect(tickets.getByRole('link', { name: 'Show entry voucher (QR code)' })).toHaveAttribute(
    'href',
    new RegExp(`^/en/voucher\\?order=${order.orderNo}&key=`),
  );

  await page.goto('/en/orders?tab=pending_receipt');
  await hydrated(page);
  await card.getByRole('button', { name: `Confirm Receipt of order ${order.orderNo}` }).click();
  const prompt = page.getByRole('dialog', { name: 'Confirm receipt?' });
  await expect(prompt).toContainText('Please confirm only after you have received the tickets and have no objection to them.');
  await prompt.getByRole('button', { name: 'I have received them' }).click();
  await expect(page.getByText('No orders', { exact: true })).toBeVisible();

  await page.getByRole('navigation', { name: 'Order status' }).getByRole('link', { name: 'Completed' }).click();
  await expect(card).toContainText('Completed');
  await card.getByRole('link', { name: `Details of order ${order.orderNo}` }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Completed' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Confirm Receipt/ })).toHaveCount(0);
});
