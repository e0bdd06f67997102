/**
 * A show postponed or cancelled, as its buyer sees it on the order page: what happened and what they
 * get back, and a postponed show's refund asked for through the confirm prompt. Each test changes a
 * session of its own (a copy of a seeded one, 20 days ahead), so no other journey's show moves.
 */
import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture, ownShowCopy } from './fixtures.ts';
import { orderOf, payInSandbox, placeOrder, postWithoutBody } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => {
  // Each test makes its own show and operator through the local database, signs up, pays and has an operator act.
  test.slow();
  await ownClientAddress(context, testInfo);
});

const DAY = 24 * 3600 * 1000;

/** Operations staff: a new account marked as an operator, signed in on its own request context. */
async function operator(browser: Browser, testInfo: TestInfo): Promise<APIRequestContext> {
  const context = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(context, testInfo);
  const { userId } = await signUpByEmail(context.request, 'operator');
  await fixture('make-staff', { userId: Number(userId), role: 'operator' });
  return context.request;
}

/** A new buyer's paid order on a show of the test's own, and an operator's request context. */
async function paidOrderOnOwnShow(page: Page, browser: Browser, testInfo: TestInfo, label: string) {
  const show = await ownShowCopy(20);
  await signUpByEmail(page.request, label);
  const order = await placeOrder(page.request, show);
  await payInSandbox(page, order);
  return { show, order, staff: await operator(browser, testInfo) };
}

test('a postponed show keeps the order, says so, and refunds it when the buyer asks (Traditional Chinese)', async ({
  page,
  browser,
}, testInfo) => {
  const { show, order, staff } = await paidOrderOnOwnShow(page, browser, testInfo, 'postponed-buyer');
  const now = Date.now();
  const postponed = await staff.post(`/api/v1/operator/sessions/${show.sessionId}/postpone`, {
    data: { startsAt: now + 50 * DAY, endsAt: now + 50 * DAY + 3 * 3600_000, refundUntil: now + 30 * DAY },
  });
  expect(postponed.status(), await postponed.text()).toBe(200);

  await page.goto(`/zh-HK/orders/${order.id}`);
  const update = page.getByRole('note', { name: '演出更新' });
  await expect(update).toContainText('此演出已由');
  await expect(update).toContainText('你的門票在新日期仍然有效');
  const expected = (await orderOf(page.request, order.id, 'zh-HK')) as OrderDetail;
  await expect(update).toContainText(`申請退款 ${expected.showChange!.refund.formatted}`);

  const reloaded = page.waitForEvent('load');
  await page.getByRole('button', { name: `申請退款：訂單 ${order.orderNo}` }).click();
  const prompt = page.getByRole('dialog', { name: '確定申請退款？' });
  await prompt.getByRole('button', { name: '確定退款' }).click();
  await reloaded;
  await expect(page.getByRole('note', { name: '演出更新' })).toContainText(`我們正將 ${expected.showChange!.refund.formatted} 退回`);
  await expect(page.getByRole('button', { name: `申請退款：訂單 ${order.orderNo}` })).toHaveCount(0);
  expect((await orderOf(page.request, order.id)).status).toBe('refunded');
});

test('a cancelled show refunds the paid order minus the fees and says what came back (English)', async ({ page, browser }, testInfo) => {
  const { show, order, staff } = await paidOrderOnOwnShow(page, browser, testInfo, 'cancelled-buyer');
  const cancelled = await postWithoutBody(staff, `/api/v1/operator/sessions/${show.sessionId}/cancel`);
  expect(cancelled.status(), await cancelled.text()).toBe(200);

  const after = await orderOf(page.request, order.id);
  expect(after.status).toBe('refunded');
  expect(after.refund!.amount).toBe(order.cost.total - order.cost.serviceFee - order.cost.postage);
  await page.goto(`/en/orders/${order.id}`);
  await expect(page.getByRole('note', { name: 'Show update' })).toContainText(
    `This show was cancelled. We are refunding ${after.refund!.formatted} to the way you paid; the service fee and the mailing fee are not refunded.`,
  );
});
