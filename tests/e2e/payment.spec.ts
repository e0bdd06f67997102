/**
 * Paying on a phone: the payment page (countdown, methods, "do not close this window"), card
 * payment on the sandbox provider's page opened in a new window (approve → success, decline →
 * failed), WeChat Pay by QR code (cancel → cancelled), the leave warning, the in-app-browser hint
 * in Traditional Chinese, and someone else's order. Every test signs up its own buyer and places
 * its own order through the API, on a listing found through the API.
 */
import { expect, test, type Page } from '@playwright/test';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import {
  activityIds,
  CHECKOUT_JS_BUDGET_KB,
  eTicketListings,
  firstLoadJsKb,
  placeOrder,
  seriousViolations,
  type Listing,
} from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

/** Activities this file buys from, apart from where the other journeys start, so their stock rarely meets. */
const PAYMENT_ACTIVITY_IDS = activityIds(1060, 1400);
const WECHAT_USER_AGENT =
  'Mozilla/5.0 (Linux; Android 14; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 MicroMessenger/8.0.47.2560(0x28002F35) WeChat/arm64 Weixin NetType/WIFI Language/zh_HK';

/** The listing every test of this worker buys single e-tickets from, found once. */
let listing: Listing | null = null;

/** Signs a new buyer up and places an order for one e-ticket (Visa) through the API, at the quoted total. */
async function buyerWithOrder(page: Page, label: string): Promise<OrderDetail> {
  await signUpByEmail(page.request, label);
  listing ??= (await eTicketListings(page.request, { ids: PAYMENT_ACTIVITY_IDS, quantity: 1, spare: 5 }))[0];
  return placeOrder(page.request, listing, 'visa');
}

function outcomeUrl(page: 'paySuccess' | 'payFail' | 'payCancel', orderId: number, prefix = '/en'): RegExp {
  return new RegExp(`${prefix}/${page}\\?orderId=${orderId}$`);
}

test('pays by card on the sandbox page opened in a new window, and both windows show the success', async ({ page }) => {
  const order = await buyerWithOrder(page, 'pay-card');
  const javascriptKb = await firstLoadJsKb(page, `/en/order/${order.id}/pay`);
  test.info().annotations.push({ type: 'first-load JS (KB gzip)', description: javascriptKb.toFixed(1) });
  expect(javascriptKb).toBeLessThanOrEqual(CHECKOUT_JS_BUDGET_KB);

  await expect(page.getByRole('heading', { level: 1, name: 'Payment' })).toBeVisible();
  await expect(page.getByText(order.orderNo)).toBeVisible();
  await expect(page.getByRole('timer')).toHaveText(/^1[45]:\d\d$/);
  await expect(page.getByText('Do not close this window until the payment is complete.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Open in Browser' })).toHaveCount(0);
  await expect(page.getByRole('radio')).toHaveCount(11);
  await expect(page.getByRole('radio', { name: /^Visa/ })).toBeChecked();
  expect(await seriousViolations(page)).toEqual([]);

  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: `Pay ${order.cost.formatted.total}` }).click();
  const provider = await popupOpened;
  await provider.waitForURL(/\/en\/sandbox\/pay\/sbx_[\w-]{43}$/);
  const hostedPage = provider.url();
  await expect(provider.getByRole('heading', { name: 'Confirm this test payment' })).toBeVisible();
  await expect(provider.getByText(order.cost.formatted.total)).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Waiting for your payment…');
  expect(await seriousViolations(provider)).toEqual([]);

  await provider.getByRole('button', { name: 'Approve payment' }).click();
  await provider.waitForURL(outcomeUrl('paySuccess', order.id));
  await expect(provider.getByRole('heading', { name: 'Payment successful' })).toBeVisible();
  await expect(
    provider.getByText(`We have received your payment of ${order.cost.formatted.total} for order ${order.orderNo}.`),
  ).toBeVisible();
  await expect(provider.getByRole('link', { name: 'View order' })).toHaveAttribute('href', `/en/orders/${order.id}`);

  // The payment page learnt it by polling and moved on by itself.
  await page.waitForURL(outcomeUrl('paySuccess', order.id));
  expect(await seriousViolations(page)).toEqual([]);
  // A paid order's payment page is its success page; its sandbox page only says how it ended.
  await page.goto(`/en/order/${order.id}/pay`);
  await page.waitForURL(outcomeUrl('paySuccess', order.id));
  await provider.goto(hostedPage);
  await expect(provider.getByText('This payment has been approved.')).toBeVisible();
  await expect(provider.getByRole('button', { name: 'Approve payment' })).toHaveCount(0);
});

test('a declined card payment ends on the failed page, and the order can still be paid', async ({ page }) => {
  const order = await buyerWithOrder(page, 'pay-decline');
  await page.goto(`/en/order/${order.id}/pay`);
  await page.getByRole('radio', { name: /^Credit card/ }).check();

  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('button', { name: /^Pay / }).click();
  const provider = await popupOpened;
  await provider.getByRole('button', { name: 'Decline payment' }).click();

  await provider.waitForURL(outcomeUrl('payFail', order.id));
  await expect(provider.getByRole('heading', { name: 'Payment Failed' })).toBeVisible();
  await expect(provider.getByText('This happens when it is cancelled manually or the network fails.')).toBeVisible();
  await page.waitForURL(outcomeUrl('payFail', order.id));
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByRole('link', { name: 'Pay again' }).click();
  await page.waitForURL(new RegExp(`/en/order/${order.id}/pay$`));
  await expect(page.getByRole('button', { name: /^Pay / })).toBeEnabled();
});

test('pays by WeChat Pay QR code; cancelling on the provider page ends on the cancelled page', async ({ page }) => {
  const order = await buyerWithOrder(page, 'pay-wechat');
  await page.goto(`/en/order/${order.id}/pay`);
  await page.getByRole('radio', { name: /^WeChat Pay/ }).check();
  await page.getByRole('button', { name: /^Pay / }).click();

  const qr = page.getByRole('img', { name: 'QR code to pay with WeChat Pay' });
  await expect(qr).toBeVisible();
  expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
  await expect(page.getByText(`Scan with WeChat Pay to pay ${order.cost.formatted.total}.`)).toBeVisible();

  const popupOpened = page.waitForEvent('popup');
  await page.getByRole('link', { name: /Paying on this phone\? Open the payment page/ }).click();
  const provider = await popupOpened;
  await expect(provider.getByText('WeChat Pay')).toBeVisible();
  await provider.getByRole('button', { name: 'Cancel payment' }).click();

  await provider.waitForURL(outcomeUrl('payCancel', order.id));
  await expect(provider.getByRole('heading', { name: 'Payment cancelled' })).toBeVisible();
  await expect(provider.getByRole('link', { name: 'Pay again' })).toBeVisible();
  await page.waitForURL(outcomeUrl('payCancel', order.id));
});

test('asks before leaving an unpaid payment page', async ({ page }) => {
  const order = await buyerWithOrder(page, 'pay-leave');
  await page.goto(`/en/order/${order.id}/pay`);
  await expect(page.getByRole('button', { name: /^Pay / })).toBeEnabled();

  const asked: string[] = [];
  page.once('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.dismiss();
  });
  await page.getByRole('link', { name: 'Back to the order' }).click();
  expect(asked).toEqual(['Payment is not completed. Are you sure you want to leave?']);
  await page.waitForURL(new RegExp(`/en/order/${order.id}/pay$`));

  page.once('dialog', (dialog) => void dialog.accept());
  await page.getByRole('link', { name: 'Back to the order' }).click();
  await page.waitForURL(new RegExp(`/en/orders/${order.id}$`));
});

test("someone else's order has no payment page, and outcome pages need an order of yours", async ({ page, browser }) => {
  const order = await buyerWithOrder(page, 'pay-owner');
  const other = await browser.newContext();
  const stranger = await other.newPage();
  await signUpByEmail(stranger.request, 'pay-stranger');
  expect((await stranger.goto(`/en/order/${order.id}/pay`))?.status()).toBe(404);
  expect((await stranger.goto(`/en/paySuccess?orderId=${order.id}`))?.status()).toBe(404);
  expect((await stranger.goto('/en/payFail?orderId=abc'))?.status()).toBe(404);
  await other.close();

  // The owner cannot see "success" before paying: it is the payment page still.
  await page.goto(`/en/paySuccess?orderId=${order.id}`);
  await page.waitForURL(new RegExp(`/en/order/${order.id}/pay$`));
});

test.describe('inside WeChat, in Traditional Chinese', () => {
  test.use({ userAgent: WECHAT_USER_AGENT });

  test('hints to open the page in the browser and speaks Chinese through to the outcome', async ({ page }) => {
    const order = await buyerWithOrder(page, 'pay-zh');
    await page.goto(`/zh-HK/order/${order.id}/pay`);

    await expect(page.getByRole('heading', { name: '在瀏覽器中打開' })).toBeVisible();
    await expect(page.getByText('您正在使用 微信 的內置瀏覽器')).toBeVisible();
    await expect(page.getByText('付款完成前，請勿關閉此視窗。')).toBeVisible();
    await expect(page.getByRole('heading', { name: '剩餘付款時間' })).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('radio', { name: /^支付寶/ }).check();
    await page.getByRole('button', { name: /^支付 / }).click();
    await expect(page.getByRole('img', { name: '使用支付寶付款的二維碼' })).toBeVisible();
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('link', { name: /打開付款頁面/ }).click();
    const provider = await popupOpened;
    await provider.waitForURL(/\/zh-HK\/sandbox\/pay\//);
    await provider.getByRole('button', { name: '批准付款' }).click();
    await provider.waitForURL(outcomeUrl('paySuccess', order.id, '/zh-HK'));
    await expect(provider.getByRole('heading', { name: '付款成功' })).toBeVisible();
  });
});
