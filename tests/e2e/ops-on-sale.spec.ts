/**
 * The console's on-sale control and exchange rates in a browser: an operator finds a session of
 * their own show among the on-sales, sees its refund preview (what the paid buyer gets back), and
 * cancels it only once the session's number is typed again, on a phone and on a laptop; and pins a
 * rate by hand on /ops/rates (at its own value, then unpinned, so no other journey's prices move).
 */
import { expect, test, type Browser, type BrowserContextOptions, type Page, type TestInfo } from '@playwright/test';
import type { RefundPreview } from '../../src/lib/services/catalogue/refund-preview.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture, ownShowCopy } from './fixtures.ts';
import { detailOf, orderOf, payInSandbox, placeOrder, type Listing } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => {
  // Each test makes its own show and operator through the local database, signs up and pays.
  test.slow();
  await ownClientAddress(context, testInfo);
});

const LAPTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 };

/** A new operator signed in on a browser context of their own (the phone's, or a laptop's), and its page. */
async function operatorPage(browser: Browser, testInfo: TestInfo, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ ...testInfo.project.use, ...options });
  await ownClientAddress(context, testInfo);
  const { userId } = await signUpByEmail(context.request, 'on-sale-operator');
  await fixture('make-staff', { userId, role: 'operator' });
  return context.newPage();
}

async function paidOrder(page: Page, show: Listing): Promise<OrderDetail> {
  await signUpByEmail(page.request, 'on-sale-buyer');
  const order = await placeOrder(page.request, show);
  await payInSandbox(page, order);
  return orderOf(page.request, order.id);
}

/** On the session's screen: the refund preview names the paid order and what it gets back; a wrong confirmation cancels nothing; the right one does. */
async function cancelWithPreview(operator: Page, sessionId: number, order: OrderDetail): Promise<void> {
  const answer = await operator.request.get(`/api/v1/operator/sessions/${sessionId}/refund-preview`, { headers: { language: 'en' } });
  const figures = (await answer.json()).data as RefundPreview;
  const expected = figures.orders.find((line) => line.orderNo === order.orderNo)!;
  expect(expected.refund.amount).toBe(order.cost.total - order.cost.serviceFee - order.cost.postage);
  const preview = operator.getByRole('table', { name: 'Refund preview' });
  const line = preview.getByRole('row').filter({ hasText: order.orderNo });
  await expect(line.getByRole('cell').nth(4)).toHaveText(expected.paid.formatted);
  await expect(line.getByRole('cell').nth(5)).toHaveText(expected.refund.formatted);
  const totals = operator.getByRole('table', { name: 'Totals per currency' });
  await expect(totals.getByRole('row').filter({ hasText: order.cost.currency }).getByRole('cell').nth(1)).toHaveText('1');

  const confirm = operator.getByRole('textbox', { name: `Type the session number ${sessionId} to confirm` }).last();
  await confirm.fill(String(sessionId + 1));
  await operator.getByRole('button', { name: 'Cancel the session and refund' }).click();
  await expect(operator.getByText(`Type the session number ${sessionId} exactly to confirm.`)).toBeVisible();
  await expect(operator.getByRole('button', { name: 'Cancel the session and refund' })).toBeVisible();

  await operator
    .getByRole('textbox', { name: `Type the session number ${sessionId} to confirm` })
    .last()
    .fill(String(sessionId));
  await operator.getByRole('button', { name: 'Cancel the session and refund' }).click();
  await expect(operator.getByRole('status')).toHaveText(
    'The session is cancelled: 1 orders refunded, 0 unpaid orders and 1 listings closed.',
  );
  await expect(operator.getByRole('note')).toHaveText('This session is cancelled: nothing more can change.');
}

test('an operator on a phone sees the refund preview and cancels a session with the second confirmation', async ({
  page,
  browser,
}, testInfo) => {
  const show = await ownShowCopy(20);
  const order = await paidOrder(page, show);
  const operator = await operatorPage(browser, testInfo);
  await operator.goto(`/en/ops/on-sales/${show.sessionId}`);
  await expect(operator.getByRole('heading', { level: 2, name: 'Refund preview' })).toBeVisible();
  await cancelWithPreview(operator, show.sessionId, order);
  const after = await orderOf(page.request, order.id);
  expect(after.status).toBe('refunded');
  expect(after.refund!.amount).toBe(order.cost.total - order.cost.serviceFee - order.cost.postage);
});

test('an operator on a laptop finds the session among the on-sales, watches its live figures and cancels it', async ({
  page,
  browser,
}, testInfo) => {
  const show = await ownShowCopy(20);
  const order = await paidOrder(page, show);
  const name = (await detailOf(page.request, show.activityId))!.name;
  const operator = await operatorPage(browser, testInfo, LAPTOP);
  await operator.goto(`/en/ops/on-sales?when=now&q=${encodeURIComponent(name)}`);
  await operator.getByRole('link', { name: new RegExp(`#${show.sessionId}$`) }).click();
  await expect(operator).toHaveURL(new RegExp(`/en/ops/on-sales/${show.sessionId}$`));
  const live = operator.getByRole('region', { name: 'Live' });
  await expect(live.getByText('Not high demand: buyers go straight to checkout.')).toBeVisible();
  // The island reads the figures again every few seconds: the time it last did so moves on.
  const updated = live.getByText(/^Updated at /);
  const first = await updated.textContent();
  await expect(updated).not.toHaveText(first!, { timeout: 15_000 });
  await cancelWithPreview(operator, show.sessionId, order);
  expect((await orderOf(page.request, order.id)).status).toBe('refunded');
});

test('an operator pins an exchange rate by hand and unpins it', async ({ browser }, testInfo) => {
  const operator = await operatorPage(browser, testInfo, LAPTOP);
  await operator.goto('/en/ops/rates');
  const row = operator.getByRole('row').filter({ has: operator.getByRole('rowheader', { name: 'PHP', exact: true }) });
  const rate = await row.getByRole('textbox', { name: 'Rate for PHP' }).inputValue();
  await row.getByRole('button', { name: 'Pin PHP' }).click();
  await expect(operator.getByRole('status')).toHaveText(`PHP is pinned at ${rate}.`);
  const pinned = operator.getByRole('row').filter({ has: operator.getByRole('rowheader', { name: 'PHP', exact: true }) });
  await expect(pinned).toContainText('Set by hand');
  await expect(pinned).toContainText(/Pinned by /);
  await pinned.getByRole('button', { name: 'Unpin PHP' }).click();
  await expect(operator.getByRole('status')).toHaveText('PHP is unpinned: the next refresh writes it.');
  await expect(operator.getByRole('button', { name: 'Unpin PHP' })).toHaveCount(0);
});
