/**
 * The whole checkout on a phone, as a buyer walks it: from an activity's detail
 * page through the order confirmation, card payment on the sandbox provider's page, My Orders, the
 * seller's fulfilment (the code path of `npm run demo:fulfil`), the voucher's QR codes and Confirm
 * Receipt to a completed order, in English and Simplified Chinese; an unpaid order whose time to pay
 * runs out while its payment page is open, which releases its tickets; and an order the buyer
 * cancels. Every test signs up its own buyer; the words are the pages' own catalogue texts.
 */
import { expect, test, type Page } from '@playwright/test';
import type { ActivityDetail } from '../../src/lib/services/catalogue/activity-detail.ts';
import type { TicketGroupInfo } from '../../src/lib/services/catalogue/ticket-offers.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import {
  activityIds,
  availableOf,
  buyOnDetailPage,
  escapeRegExp,
  eTicketListings,
  findListing,
  fulfilAsOrderSeller,
  hydrated,
  localeOf,
  placeOrder,
  postWithoutBody,
  type Locale,
  confirmETicketByCard,
} from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

/** The end of the seed's activities, where no other spec starts looking; the expiry test has its own part, so its stock count is exact. */
const JOURNEY_ACTIVITY_IDS = activityIds(1373, 1341);
const EXPIRY_ACTIVITY_IDS = activityIds(1340, 1300);

const english = localeOf('en');
const simplified = localeOf('zh-CN');
const traditional = localeOf('zh-HK');

const notRealName = (activity: ActivityDetail) => !activity.realNameRequired;
const deliversETickets = (listing: TicketGroupInfo) => listing.deliveryTypes.includes('e_ticket');

/** The order's card in My Orders, named by its show and its number. */
const orderCard = (page: Page, l: Locale, order: OrderDetail) =>
  page.getByRole('article', { name: new RegExp(escapeRegExp(l.say('orders.orderNo', { orderNo: order.orderNo }))) });

/** The order's status, the detail page's second-level heading. */
const statusHeading = (page: Page, l: Locale, status: OrderDetail['status']) =>
  page.getByRole('heading', { level: 2, name: l.say(`orders.tab.${status}`), exact: true });

/** Opens a tab of My Orders from its tab row. */
async function openOrdersTab(page: Page, l: Locale, tab: 'pending_ticketing' | 'cancelled'): Promise<void> {
  await page.goto(`/${l.prefix}/orders`);
  await page
    .getByRole('navigation', { name: l.say('orders.tabs') })
    .getByRole('link', { name: l.say(`orders.tab.${tab}`), exact: true })
    .click();
  await expect(page).toHaveURL(`/${l.prefix}/orders?tab=${tab}`);
}

for (const l of [english, simplified]) {
  test(`(${l.prefix}) detail → confirm → card in the sandbox → Pending Ticketing → fulfilled → voucher QR → Confirm Receipt`, async ({
    page,
  }) => {
    test.slow();
    await signUpByEmail(page.request, `journey-${l.prefix}`);
    const pick = await findListing(page.request, JOURNEY_ACTIVITY_IDS, l.language, notRealName, deliversETickets);

    await buyOnDetailPage(page, l, pick);

    // The confirmation: e-ticket, a card, the buyer notes, Submit.
    await page.waitForURL(new RegExp(`/${l.prefix}/order/confirm\\?`));
    await expect(page.getByRole('heading', { level: 1, name: l.say('title.orderConfirmPage') })).toBeVisible();
    const order = await confirmETicketByCard(page, l);
    expect(order).toMatchObject({ status: 'pending_payment', deliveryType: 'e_ticket', paymentMethod: 'visa', quantity: pick.quantity });
    expect(order.activity.id).toBe(pick.activity.id);

    // The payment page: the card is chosen; paying opens the provider's page in a new window.
    await expect(page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(l.say('payment.visa'))}`) })).toBeChecked();
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: l.say('payment.page.pay', { amount: order.cost.formatted.total }) }).click();
    const provider = await popupOpened;
    await provider.waitForURL(new RegExp(`/${l.prefix}/sandbox/pay/`));
    await expect(provider.getByText(order.cost.formatted.total)).toBeVisible();
    await provider.getByRole('button', { name: l.say('payment.sandbox.approve') }).click();
    await provider.waitForURL(new RegExp(`/${l.prefix}/paySuccess\\?orderId=${order.id}$`));
    await expect(provider.getByRole('heading', { name: l.say('payment.outcome.successHeading') })).toBeVisible();
    await provider.close();

    // The payment page learnt it by polling: success, and the order waits for its tickets.
    await page.waitForURL(new RegExp(`/${l.prefix}/paySuccess\\?orderId=${order.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: l.say('payment.outcome.successHeading') })).toBeVisible();
    await page.getByRole('link', { name: l.say('payment.outcome.viewOrder') }).click();
    await page.waitForURL(`/${l.prefix}/orders/${order.id}`);
    await expect(statusHeading(page, l, 'pending_ticketing')).toBeVisible();
    await expect(page.getByText(l.say('orders.detail.ticketsPending'))).toBeVisible();

    await openOrdersTab(page, l, 'pending_ticketing');
    await expect(orderCard(page, l, order)).toContainText(l.say('orders.tab.pending_ticketing'));

    // The seller issues the e-tickets.
    const fulfilled = await fulfilAsOrderSeller(order.orderNo);
    expect(fulfilled.status).toBe('pending_receipt');
    const ticketNos = fulfilled.tickets.map((ticket) => ticket.ticketNo);
    expect(ticketNos).toHaveLength(pick.quantity);

    await page.goto(`/${l.prefix}/orders/${order.id}`);
    await expect(statusHeading(page, l, 'pending_receipt')).toBeVisible();
    const tickets = page.getByRole('region', { name: l.say('orders.detail.tickets') });
    for (const ticketNo of ticketNos) await expect(tickets).toContainText(ticketNo);
    const voucherLink = tickets.getByRole('link', { name: l.say('orders.detail.voucher') });
    await expect(voucherLink).toHaveAttribute('href', new RegExp(`^/${l.prefix}/voucher\\?order=${order.orderNo}&key=`));

    // The voucher, in the page's language: each ticket's entry QR code and number.
    await voucherLink.click();
    await page.waitForURL(new RegExp(`/${l.prefix}/voucher\\?`));
    const voucher = page.getByRole('main');
    await expect(voucher.getByRole('heading', { name: order.activity.name })).toBeVisible();
    for (const ticketNo of ticketNos) {
      await expect(voucher.getByRole('img', { name: l.say('voucher.qrLabel', { ticketNo }) })).toBeVisible();
      await expect(voucher.getByText(ticketNo, { exact: true })).toBeVisible();
    }
    await expect(voucher.getByText(l.say('voucher.state.valid'), { exact: true })).toHaveCount(ticketNos.length);

    // Confirm Receipt asks first, then completes the order.
    await page.goto(`/${l.prefix}/orders/${order.id}`);
    await hydrated(page);
    await page.getByRole('button', { name: l.say('orders.action.confirmReceiptNamed', { orderNo: order.orderNo }) }).click();
    const prompt = page.getByRole('dialog', { name: l.say('orders.action.confirmReceiptTitle') });
    await expect(prompt).toContainText(l.say('orders.action.confirmReceiptPrompt'));
    await prompt.getByRole('button', { name: l.say('orders.action.confirmReceiptYes') }).click();
    await expect(statusHeading(page, l, 'completed')).toBeVisible();
    await expect(page.getByText(l.say('orders.hint.completed'))).toBeVisible();
    await expect(page.getByRole('button', { name: l.say('orders.action.confirmReceiptNamed', { orderNo: order.orderNo }) })).toHaveCount(0);
  });
}

test('an unpaid order whose time to pay runs out is cancelled on its open payment page, and its tickets are released', async ({ page }) => {
  const l = english;
  await signUpByEmail(page.request, 'journey-expiry');
  const [listing] = await eTicketListings(page.request, { ids: EXPIRY_ACTIVITY_IDS, spare: 2 });
  const before = await availableOf(page.request, listing);
  const order = await placeOrder(page.request, listing);
  expect(await availableOf(page.request, listing)).toBe(before - listing.quantity);

  // A QR payment is started, so the page polls the order while the buyer is paying.
  await page.goto(`/${l.prefix}/order/${order.id}/pay`);
  await page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(l.say('payment.wechat_pay'))}`) }).check();
  await page.getByRole('button', { name: l.say('payment.page.pay', { amount: order.cost.formatted.total }) }).click();
  await expect(page.getByRole('img', { name: l.say('payment.page.qrAlt', { method: l.say('payment.wechat_pay') }) })).toBeVisible();

  const ended = await postWithoutBody(page.request, `/api/v1/dev/orders/${order.id}/end-payment-time`);
  expect(ended.status(), await ended.text()).toBe(200);
  expect((await ended.json()).data).toMatchObject({ status: 'cancelled', cancelReason: 'timeout' });

  await page.waitForURL(new RegExp(`/${l.prefix}/payCancel\\?orderId=${order.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: l.say('payment.outcome.orderCancelledHeading') })).toBeVisible();
  await expect(page.getByText(l.say('payment.outcome.orderCancelledTimeout'))).toBeVisible();
  await expect(page.getByRole('link', { name: l.say('payment.outcome.payAgain') })).toHaveCount(0);

  await page.getByRole('link', { name: l.say('payment.outcome.viewOrder') }).click();
  await page.waitForURL(`/${l.prefix}/orders/${order.id}`);
  await expect(statusHeading(page, l, 'cancelled')).toBeVisible();
  await expect(page.getByText(l.say('orders.hint.cancelled.timeout'))).toBeVisible();
  await expect(page.getByRole('link', { name: l.say('orders.payNamed', { orderNo: order.orderNo }) })).toHaveCount(0);
  await expect(page.getByRole('timer')).toHaveCount(0);

  await openOrdersTab(page, l, 'cancelled');
  await expect(orderCard(page, l, order)).toContainText(l.say('orders.tab.cancelled'));
  expect(await availableOf(page.request, listing)).toBe(before);
});

for (const l of [english, traditional]) {
  test(`(${l.prefix}) Cancel Order asks first, then the order is cancelled and cannot be paid`, async ({ page }) => {
    await signUpByEmail(page.request, `journey-cancel-${l.prefix}`);
    const [listing] = await eTicketListings(page.request, { ids: JOURNEY_ACTIVITY_IDS, spare: 2 });
    const order = await placeOrder(page.request, listing);
    const payNow = page.getByRole('link', { name: l.say('orders.payNamed', { orderNo: order.orderNo }) });
    const cancel = page.getByRole('button', { name: l.say('orders.action.cancelNamed', { orderNo: order.orderNo }) });

    await page.goto(`/${l.prefix}/orders/${order.id}`);
    await expect(statusHeading(page, l, 'pending_payment')).toBeVisible();
    await expect(payNow).toHaveAttribute('href', `/${l.prefix}/order/${order.id}/pay`);
    await hydrated(page);
    await cancel.click();
    const prompt = page.getByRole('dialog', { name: l.say('orders.action.cancelTitle') });
    await expect(prompt).toContainText(l.say('orders.action.cancelPrompt'));
    await prompt.getByRole('button', { name: l.say('orders.action.cancelYes') }).click();

    await expect(statusHeading(page, l, 'cancelled')).toBeVisible();
    await expect(page.getByText(l.say('orders.hint.cancelled.user'))).toBeVisible();
    await expect(payNow).toHaveCount(0);
    await expect(cancel).toHaveCount(0);
    await expect(page.getByRole('timer')).toHaveCount(0);

    // Its payment page now only says that the order was cancelled.
    await page.goto(`/${l.prefix}/order/${order.id}/pay`);
    await page.waitForURL(new RegExp(`/${l.prefix}/payCancel\\?orderId=${order.id}$`));
    await expect(page.getByRole('heading', { level: 1, name: l.say('payment.outcome.orderCancelledHeading') })).toBeVisible();
    await expect(page.getByText(l.say('payment.outcome.orderCancelledUser'))).toBeVisible();

    await openOrdersTab(page, l, 'cancelled');
    await expect(orderCard(page, l, order)).toContainText(l.say('orders.tab.cancelled'));
    await expect(orderCard(page, l, order).getByRole('link', { name: l.say('orders.payNamed', { orderNo: order.orderNo }) })).toHaveCount(
      0,
    );
  });
}
