/**
 * Changing a real-name attendee on a phone: the buyer of a paid, ticketed real-name order
 * opens the order, is told until when an attendee can change, asks to change one (a malformed ID
 * number is refused on the field first) and sees the request waiting for the seller. The seller finds
 * it on the gate page and approves it; the buyer's order then names the new attendee. The words are
 * the pages' own catalogue texts.
 */
import { devices, expect, test, type APIRequestContext } from '@playwright/test';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { DEMO_SELLER_PASSWORD } from '../../src/lib/db/seed.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { listingOnSale } from './fixtures.ts';
import { BASE_URL, hydratedInView, localeOf, payInSandbox, placeOrder, seriousViolations, unnamedControls } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

const en = localeOf('en');
const zhHK = localeOf('zh-HK');

/** A real-name e-ticket listing on sale for one ticket, its show more than a week away (beyond the change cut-off), and its seller's sign-in. */
async function realNameListing(): Promise<{ id: number; sellerEmail: string }> {
  const listing = await listingOnSale({
    activityStates: ['onSale', 'booking'],
    realNames: true,
    eTicket: true,
    sellerListed: true,
    orderOf: 1,
    minAvailable: 5,
    sessionStartsIn: 7 * 86400000,
    sellerHasEmail: true,
    order: 'newest',
  });
  expect(listing, 'a seeded real-name e-ticket listing').toBeDefined();
  return { id: listing!.id, sellerEmail: listing!.sellerEmail! };
}

/** Places a one-ticket real-name order for a visitor showing a passport, through the API as the signed-in buyer. */
async function placeRealNameOrder(request: APIRequestContext, listingId: number): Promise<OrderDetail> {
  const quoted = await request.get('/api/v1/checkout/quote', {
    params: { listingId, quantity: 1, deliveryType: 'e_ticket', coupon: 'none' },
    headers: { language: 'en' },
  });
  expect(quoted.status(), await quoted.text()).toBe(200);
  const quote = (await quoted.json()).data;
  expect(quote.activity.venueCountry).not.toBe('JP');
  const attendee = await request.post('/api/v1/attendees', {
    data: { name: 'Sato Hana', nationality: 'JP', idCardType: 'passport', idCardNo: 'TR1234567' },
  });
  expect(attendee.status(), await attendee.text()).toBe(200);
  const created = await request.post('/api/v1/orders', {
    headers: { 'Idempotency-Key': `e2e-attendee-change-${Date.now()}`, language: 'en' },
    data: {
      listingId,
      quantity: 1,
      deliveryType: 'e_ticket',
      paymentMethod: quote.paymentMethods[0],
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quote.cost.total,
      attendeeIds: [(await attendee.json()).data.id],
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return (await created.json()).data as OrderDetail;
}

test('a buyer asks to change a real-name attendee, and the seller approves it on the gate page', async ({ page, browser }, testInfo) => {
  const listing = await realNameListing();
  // The seller, on their own phone, issues the tickets and later decides on the change.
  const sellerContext = await browser.newContext({ ...devices['Pixel 7'], baseURL: BASE_URL });
  await ownClientAddress(sellerContext, testInfo);
  const sellerPage = await sellerContext.newPage();
  const signedIn = await sellerPage.request.post('/api/v1/user/mail/login', {
    data: { email: listing.sellerEmail, loginType: 'password', password: DEMO_SELLER_PASSWORD },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);

  await signUpByEmail(page.request, 'attendee-change');
  const order = await placeRealNameOrder(page.request, listing.id);
  await payInSandbox(page, order);
  const fulfilled = await sellerPage.request.post(`/api/v1/seller/orders/${order.id}/fulfil`, { data: { method: 'e_ticket' } });
  expect(fulfilled.status(), await fulfilled.text()).toBe(200);

  await page.goto(`/en/orders/${order.id}`);
  const attendees = page.getByRole('region', { name: en.say('orders.detail.attendees') });
  await expect(attendees).toContainText(en.say('orders.change.until', { deadline: 'DEADLINE' }).split('DEADLINE')[0]);
  await hydratedInView(page, 'AttendeeChange');
  await attendees.getByRole('button', { name: en.say('orders.change.askNamed', { name: 'Sato Hana' }) }).click();

  const form = page.getByRole('form', { name: en.say('orders.change.formHeading', { name: 'Sato Hana' }) });
  await form.getByRole('textbox', { name: en.say('profile.attendee.name') }).fill('Ito Yui');
  await form.getByRole('combobox', { name: en.say('profile.attendee.nationality') }).selectOption('JP');
  // A visitor shows a passport at this venue: choosing the nationality chose the ID type.
  await expect(form.getByRole('combobox', { name: en.say('profile.attendee.idType') })).toHaveValue('passport');
  const idNumber = form.getByRole('textbox', { name: en.say('profile.attendee.idNumber') });
  await idNumber.fill('X1');
  await form.getByRole('button', { name: en.say('orders.change.submit') }).click();
  await expect(form.getByText(en.say('error.id_number_invalid'))).toBeVisible();
  await expect(form.getByRole('textbox', { name: en.say('profile.attendee.name') })).toHaveValue('Ito Yui');

  expect(await unnamedControls(page)).toEqual([]);
  expect(await seriousViolations(page)).toEqual([]);

  await idNumber.fill('TR7654321');
  await form.getByRole('button', { name: en.say('orders.change.submit') }).click();
  await expect(attendees.getByText(en.say('orders.change.pending', { name: 'Ito Yui' }))).toBeVisible();
  const history = attendees.getByRole('listitem').filter({ hasText: en.say('orders.change.entry', { from: 'Sato Hana', to: 'Ito Yui' }) });
  await expect(history).toContainText(en.say('orders.change.status.pending'));

  await sellerPage.goto('/en/gate');
  const requests = sellerPage.getByRole('region', { name: en.say('gate.changes.heading') });
  await expect(requests.getByText(en.say('gate.changes.order', { orderNo: order.orderNo }), { exact: false })).toBeVisible();
  await hydratedInView(sellerPage, 'AttendeeChangeDecisions');
  expect(await unnamedControls(sellerPage)).toEqual([]);
  expect(await seriousViolations(sellerPage)).toEqual([]);
  const mine = requests.getByRole('listitem').filter({ hasText: order.orderNo });
  await mine.getByRole('button', { name: en.say('gate.changes.approveNamed', { name: 'Ito Yui' }) }).click();
  await expect(sellerPage.getByText(en.say('gate.changes.approved', { name: 'Ito Yui' }))).toBeVisible();
  await expect(mine).toHaveCount(0);
  await sellerContext.close();

  await page.reload();
  await expect(attendees.getByRole('listitem').filter({ hasText: 'Ito Yui' }).first()).toBeVisible();
  await expect(history).toContainText(en.say('orders.change.status.approved'));
  await expect(attendees.getByText(en.say('orders.change.pending', { name: 'Ito Yui' }))).toHaveCount(0);
});

test('a paid order of a show without real names says, in the page language, why it has no attendee to change', async ({ page }) => {
  const listing = await listingOnSale({
    activityStates: ['onSale', 'booking'],
    realNames: false,
    eTicket: true,
    sellerListed: true,
    orderOf: 1,
    minAvailable: 10,
    sessionStartsIn: 86400000,
    order: 'mostAvailable',
  });
  expect(listing, 'a seeded e-ticket listing without real names').toBeDefined();
  await signUpByEmail(page.request, 'attendee-none');
  const order = await placeOrder(page.request, { id: listing!.id, quantity: 1, activityId: 0, tierId: 0 });
  await payInSandbox(page, order);
  await page.goto(`/zh-HK/orders/${order.id}`);
  await expect(page.getByRole('region', { name: zhHK.say('orders.detail.attendees') })).toContainText(
    zhHK.say('orders.change.notRealName'),
  );
  await expect(page.getByRole('button', { name: zhHK.say('orders.change.ask') })).toHaveCount(0);
});
