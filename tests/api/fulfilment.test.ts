import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMPENSATION_COUPON_DAYS, REFUND_RETRY_AFTER_MS } from '../../src/lib/config/orders.ts';
import { database } from '../../src/lib/data/client.ts';
import { base64urlBytes } from '../../src/lib/domain/entry-code.ts';
import type { SellerOrder, SellerOrderPage } from '../../src/lib/services/marketplace/fulfilment.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { decideSandboxPayment } from '../../src/lib/services/payments/providers/sandbox.ts';
import { sweep } from '../../src/lib/services/platform/sweep.ts';
import type { Voucher } from '../../src/lib/services/orders/vouchers.ts';
import { allowAnotherCode, latestCode, sellerClient, signedInClient, signUp, TestClient } from './auth-client.ts';
import { deliverPendingMessages, messagesOf, outboxOf } from './messages.ts';
import { seed } from './helpers.ts';

const DAY_MS = 24 * 3600 * 1000;
let keyCount = 0;
const newKey = () => `fulfil-key-${Date.now()}-${++keyCount}`;

interface Listing {
  listingId: number;
  sellerId: number;
}

/** Listings buyable now whose seller offers a delivery type, one per seller, so sellers differ. */
async function listingsWith(delivery: string): Promise<Listing[]> {
  const { results } = await env.DB.prepare(
    `SELECT MIN(l.id) AS listingId, l.seller_id AS sellerId FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND l.quantity_available >= 2 AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 86400000
       AND a.real_name_required = 0 AND a.num_max >= 2 AND instr(l.delivery_types, ?2) > 0
     GROUP BY l.seller_id ORDER BY l.seller_id`,
  )
    .bind(Date.now(), delivery)
    .all<Listing>();
  return results;
}

/**
 * Puts `count` more tickets on a listing. Added, never set: the listing a test picks may be the one
 * another test buys from (which listings qualify depends on the day), and setting its stock would take theirs.
 */
async function addTickets(listingId: number, count: number): Promise<void> {
  await env.DB.prepare(
    'UPDATE listings SET quantity_available = quantity_available + ?2, quantity_total = quantity_total + ?2 WHERE id = ?1',
  )
    .bind(listingId, count)
    .run();
}

/** Places an order for two tickets of a listing with its first offered delivery details (a pickup's taker at `takerPhone`). */
async function placeOrder(buyer: TestClient, listingId: number, deliveryType = 'e_ticket', takerPhone = '91234567'): Promise<OrderDetail> {
  const quoted = await buyer.call<CheckoutQuote>(
    `/api/v1/checkout/quote?listingId=${listingId}&quantity=2&deliveryType=${deliveryType}&coupon=none`,
  );
  expect(quoted.status, quoted.text).toBe(200);
  const extra =
    deliveryType === 'on_site' || deliveryType === 'self_pickup'
      ? { takerName: 'Chan Tai Man', takerPhoneCountryCode: '+852', takerPhone }
      : {};
  const placed = await buyer.call<OrderDetail>('/api/v1/orders', {
    method: 'POST',
    headers: { 'idempotency-key': newKey() },
    body: {
      listingId,
      quantity: 2,
      deliveryType,
      paymentMethod: 'visa',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quoted.body.data.cost.total,
      ...extra,
    },
  });
  expect(placed.status, placed.text).toBe(200);
  return placed.body.data;
}

/** Pays an order in the sandbox: start the payment, approve it on the provider's side, deliver its signed webhook. */
async function pay(buyer: TestClient, order: OrderDetail): Promise<void> {
  const started = await buyer.call<{ checkoutUrl: string }>(`/api/v1/orders/${order.id}/payments`, {
    method: 'POST',
    headers: { 'idempotency-key': newKey() },
    body: { method: 'visa' },
  });
  expect(started.status, started.text).toBe(200);
  const ref = new URL(started.body.data.checkoutUrl).pathname.split('/').pop()!;
  const decided = await decideSandboxPayment(database(env.DB), env, ref, 'approve', Date.now());
  const webhook = decided!.webhook!;
  const delivered = await new TestClient().call(new URL(webhook.url).pathname, webhook.init);
  expect(delivered.status, delivered.text).toBe(200);
  const paid = await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`);
  expect(paid.body.data.status).toBe('pending_ticketing');
}

async function paidOrder(buyer: TestClient, listingId: number, deliveryType = 'e_ticket'): Promise<OrderDetail> {
  const order = await placeOrder(buyer, listingId, deliveryType);
  await pay(buyer, order);
  return order;
}

const fulfil = (client: TestClient, orderId: number, body: unknown) =>
  client.post<SellerOrder>(`/api/v1/seller/orders/${orderId}/fulfil`, body);
const fail = (client: TestClient, orderId: number, reason = 'The tickets were not delivered to me') =>
  client.post<SellerOrder>(`/api/v1/seller/orders/${orderId}/fail`, { reason });
const voucherPath = (url: string) => `/api${url.replace('/voucher?', '/v1/vouchers?')}`;

let eTicket: Listing;
let otherSellerListing: Listing;
let seller: TestClient;
let otherSeller: TestClient;
let buyer: TestClient;
let buyerEmail: string;

beforeAll(async () => {
  await seed();
  const candidates = await listingsWith('e_ticket');
  [eTicket, otherSellerListing] = candidates;
  for (const listing of candidates.slice(0, 2)) await addTickets(listing.listingId, 100);
  // One buyer orders again and again from the same shows: no session's cap per account stops them (order-limits.test.ts tests it).
  await env.DB.prepare('UPDATE activity_sessions SET account_ticket_cap = 1000').run();
  seller = await sellerClient(eTicket.sellerId);
  otherSeller = await sellerClient(otherSellerListing.sellerId);
  buyerEmail = `fulfil-buyer-${Date.now()}@example.com`;
  buyer = new TestClient();
  await signUp(buyer, buyerEmail);
});

describe('who may fulfil', () => {
  it('needs a session', async () => {
    const anonymous = new TestClient();
    expect((await anonymous.call('/api/v1/seller/orders')).status).toBe(401);
    expect((await anonymous.post('/api/v1/seller/orders/1/fulfil', { method: 'e_ticket' })).status).toBe(401);
  });

  it('refuses a user who is not a seller with 403, even for their own order', async () => {
    const order = await paidOrder(buyer, eTicket.listingId);
    const list = await buyer.call('/api/v1/seller/orders', { headers: { language: 'zh-CN' } });
    expect(list.status).toBe(403);
    expect(list.body).toMatchObject({ errorCode: 'not_a_seller', message: '此账户不是卖家账户。' });
    expect((await fulfil(buyer, order.id, { method: 'e_ticket' })).body.errorCode).toBe('not_a_seller');
    expect((await fail(buyer, order.id)).status).toBe(403);
    const detail = await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`);
    expect(detail.body.data.status).toBe('pending_ticketing');
  });

  it('counts a user who owns a listing as a seller, without the seller flag', async () => {
    const reseller = await signedInClient('fulfil-reseller');
    expect((await reseller.call('/api/v1/seller/orders')).status).toBe(403);
    await env.DB.prepare(
      `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, created_at)
       SELECT tier_id, ?, price, currency, 1, 1, seating, delivery_types, created_at FROM listings WHERE id = ?`,
    )
      .bind(Number(reseller.cookies.get('pnid')), eTicket.listingId)
      .run();
    const list = await reseller.call<SellerOrderPage>('/api/v1/seller/orders');
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject({ items: [], total: 0, page: 1, hasMore: false });
  });

  it("answers another seller's order like a missing one, changing nothing", async () => {
    const order = await paidOrder(buyer, eTicket.listingId);
    const foreign = await fulfil(otherSeller, order.id, { method: 'e_ticket' });
    expect(foreign.status).toBe(404);
    expect(foreign.body.errorCode).toBe('order_not_found');
    expect((await fail(otherSeller, order.id)).status).toBe(404);
    expect((await fulfil(seller, 99_999_999, { method: 'e_ticket' })).status).toBe(404);
    const detail = await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`);
    expect(detail.body.data).toMatchObject({ status: 'pending_ticketing', tickets: [] });
  });
});

describe('the seller order list', () => {
  it("lists the paid orders waiting for tickets, not unpaid ones or other sellers'", async () => {
    const paid = await paidOrder(buyer, eTicket.listingId);
    const unpaid = await placeOrder(buyer, eTicket.listingId);
    const foreign = await paidOrder(buyer, otherSellerListing.listingId);
    const { status, body } = await seller.call<SellerOrderPage>('/api/v1/seller/orders');
    expect(status).toBe(200);
    const ids = body.data.items.map((item) => item.id);
    expect(ids).toContain(paid.id);
    expect(ids).not.toContain(unpaid.id);
    expect(ids).not.toContain(foreign.id);
    expect(body.data.items.every((item) => item.status === 'pending_ticketing')).toBe(true);
    const listed = body.data.items.find((item) => item.id === paid.id)!;
    expect(listed).toMatchObject({ orderNo: paid.orderNo, quantity: 2, deliveryType: 'e_ticket', tickets: [] });
    expect(listed.ticketAmount.amount).toBe(paid.cost.ticketAmount);

    const unpaidTab = await seller.call<SellerOrderPage>('/api/v1/seller/orders?status=pending_payment');
    expect(unpaidTab.body.data.items.map((item) => item.id)).toContain(unpaid.id);
    expect((await seller.call('/api/v1/seller/orders?status=shipped')).body).toMatchObject({ errorCode: 'invalid_input', field: 'status' });
  });
});

describe('marking an order ticketed', () => {
  it('issues e-tickets with entry codes the voucher shows, and a second fulfilment is a 409', async () => {
    const order = await paidOrder(buyer, eTicket.listingId);
    const done = await fulfil(seller, order.id, { method: 'e_ticket', seats: ['Row C 12', 'Row C 13'] });
    expect(done.status, done.text).toBe(200);
    expect(done.body.data.status).toBe('pending_receipt');
    expect(done.body.data.tickets).toEqual([
      { ticketNo: `${order.orderNo}-01`, seat: 'Row C 12', status: 'valid' },
      { ticketNo: `${order.orderNo}-02`, seat: 'Row C 13', status: 'valid' },
    ]);

    const again = await fulfil(seller, order.id, { method: 'e_ticket' });
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('order_state_conflict');

    const detail = (await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`)).body.data;
    expect(detail.status).toBe('pending_receipt');
    expect(detail.ticketedAt).not.toBeNull();
    expect(detail.tickets).toHaveLength(2);
    expect(detail.voucherUrl).toMatch(/^\/voucher\?order=\d+&key=[\w-]+$/);

    // The voucher needs no session; each ticket's entry secret is derived from its stored nonce, never stored itself.
    const voucher = await new TestClient().call<Voucher>(voucherPath(detail.voucherUrl!));
    expect(voucher.status).toBe(200);
    expect(voucher.headers.get('cache-control')).toBe('no-store');
    expect(voucher.body.data).toMatchObject({ orderNo: order.orderNo, orderStatus: 'pending_receipt', deliveryType: 'e_ticket' });
    const stored = await env.DB.prepare(
      'SELECT ticket_no AS ticketNo, entry_nonce AS entryNonce FROM tickets WHERE order_id = ? ORDER BY id',
    )
      .bind(order.id)
      .all<{ ticketNo: string; entryNonce: string }>();
    expect(voucher.body.data.tickets).toHaveLength(2);
    for (const [index, ticket] of voucher.body.data.tickets.entries()) {
      expect(ticket.status).toBe('valid');
      expect(base64urlBytes(ticket.entrySecret!)).toHaveLength(32);
      expect(stored.results[index].entryNonce).toMatch(/^[0-9a-f]{32}$/);
    }
    expect(voucher.body.data.tickets[0].entrySecret).not.toBe(voucher.body.data.tickets[1].entrySecret);
    expect(JSON.stringify(stored.results)).not.toContain(voucher.body.data.tickets[0].entrySecret!);
  });

  it('refuses an order that is not paid yet with 409, writing no tickets', async () => {
    const unpaid = await placeOrder(buyer, eTicket.listingId);
    const early = await fulfil(seller, unpaid.id, { method: 'e_ticket' });
    expect(early.status).toBe(409);
    expect(early.body.errorCode).toBe('order_state_conflict');
    const count = await env.DB.prepare('SELECT COUNT(*) AS n FROM tickets WHERE order_id = ?').bind(unpaid.id).first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it('checks what each method needs, naming the field', async () => {
    const order = await paidOrder(buyer, eTicket.listingId);
    const courier = await fulfil(seller, order.id, { method: 'courier', trackingNo: 'SF1234567890' });
    expect(courier.body).toMatchObject({ code: 400, errorCode: 'fulfilment_method_mismatch', field: 'method' });
    const seats = await fulfil(seller, order.id, { method: 'e_ticket', seats: ['A1'] });
    expect(seats.body).toMatchObject({
      errorCode: 'seats_count_mismatch',
      field: 'seats',
      message: 'Please give one seat for each of the 2 tickets.',
    });
    const method = await fulfil(seller, order.id, { method: 'carrier pigeon' });
    expect(method.body).toMatchObject({ errorCode: 'invalid_input', field: 'method' });
    const body = await seller.call(`/api/v1/seller/orders/${order.id}/fulfil`, { method: 'POST', body: 'not json' });
    expect(body.body).toMatchObject({ errorCode: 'invalid_input', field: 'body' });
    const detail = await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`);
    expect(detail.body.data.status).toBe('pending_ticketing');
  });

  it('ships a courier order with its tracking number, and a paper ticket carries no entry code', async () => {
    const [courierListing] = (await listingsWith('courier')).filter((listing) => listing.sellerId === eTicket.sellerId);
    if (!courierListing) throw new Error(`seller ${eTicket.sellerId} has no courier listing in the seed`);
    await addTickets(courierListing.listingId, 10);
    const buyerAddress = await buyer.post<{ id: number }>('/api/v1/addresses', {
      name: 'Chan Tai Man',
      phoneCountryCode: '+852',
      phone: '91234567',
      countryCode: 'HK',
      district: 'WC',
      street: "1 Queen's Road Central",
    });
    expect(buyerAddress.status, buyerAddress.text).toBe(200);
    const quoted = await buyer.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${courierListing.listingId}&quantity=1&deliveryType=courier&coupon=none`,
    );
    const placed = await buyer.call<OrderDetail>('/api/v1/orders', {
      method: 'POST',
      headers: { 'idempotency-key': newKey() },
      body: {
        listingId: courierListing.listingId,
        quantity: 1,
        deliveryType: 'courier',
        paymentMethod: 'visa',
        coupon: 'none',
        acceptNotes: true,
        addressId: buyerAddress.body.data.id,
        expectedTotal: quoted.body.data.cost.total,
      },
    });
    expect(placed.status, placed.text).toBe(200);
    await pay(buyer, placed.body.data);

    const missing = await fulfil(seller, placed.body.data.id, { method: 'courier', trackingNo: '' });
    expect(missing.body).toMatchObject({ errorCode: 'tracking_no_required', field: 'trackingNo' });
    const shipped = await fulfil(seller, placed.body.data.id, { method: 'courier', trackingNo: 'SF1234567890' });
    expect(shipped.status, shipped.text).toBe(200);
    expect(shipped.body.data).toMatchObject({
      status: 'pending_receipt',
      trackingNo: 'SF1234567890',
      shippingAddress: { name: 'Chan Tai Man' },
    });
    const detail = (await buyer.call<OrderDetail>(`/api/v1/orders/${placed.body.data.id}`)).body.data;
    expect(detail.trackingNo).toBe('SF1234567890');
    const voucher = await new TestClient().call<Voucher>(voucherPath(detail.voucherUrl!));
    expect(voucher.body.data.trackingNo).toBe('SF1234567890');
    expect(voucher.body.data.tickets).toEqual([
      { ticketNo: `${placed.body.data.orderNo}-01`, seat: null, status: 'valid', entrySecret: null },
    ]);
    const shippedMessages = (await messagesOf({ orderId: placed.body.data.id })).filter((message) => message.kind === 'courier_shipped');
    expect(shippedMessages.map((message) => JSON.parse(message.payload))).toEqual([{ trackingNo: 'SF1234567890' }]);
  });
});

describe('handing tickets out at a pickup point', () => {
  it('sets the place and time of an on-site order, which must be before the show', async () => {
    const [listing] = await listingsWith('on_site');
    await addTickets(listing.listingId, 10);
    const pickupSeller = await sellerClient(listing.sellerId);
    const order = await paidOrder(buyer, listing.listingId, 'on_site');
    const startsAt = (await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`)).body.data.session.startsAt;

    const late = await fulfil(pickupSeller, order.id, { method: 'pickup', pickupAddress: 'Gate 3 ticket desk', pickupTime: startsAt });
    expect(late.body).toMatchObject({ errorCode: 'pickup_after_show', field: 'pickupTime' });
    const noPlace = await fulfil(pickupSeller, order.id, { method: 'pickup', pickupTime: startsAt - 2 * 3_600_000 });
    expect(noPlace.body).toMatchObject({ errorCode: 'pickup_address_required', field: 'pickupAddress' });

    const handedOut = await fulfil(pickupSeller, order.id, {
      method: 'pickup',
      pickupAddress: ' Gate 3 ticket desk ',
      pickupTime: startsAt - 2 * 3_600_000,
    });
    expect(handedOut.status, handedOut.text).toBe(200);
    expect(handedOut.body.data).toMatchObject({
      status: 'pending_receipt',
      pickup: { address: 'Gate 3 ticket desk', time: startsAt - 2 * 3_600_000 },
    });
    const detail = (await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`)).body.data;
    expect(detail.pickup).toEqual({ address: 'Gate 3 ticket desk', from: startsAt - 2 * 3_600_000 });
    const voucher = await new TestClient().call<Voucher>(voucherPath(detail.voucherUrl!));
    expect(voucher.body.data.pickup).toMatchObject({ address: 'Gate 3 ticket desk', time: startsAt - 2 * 3_600_000 });
    expect(voucher.body.data.tickets.every((ticket) => ticket.entrySecret === null)).toBe(true);

    // The collector's number is not confirmed: the place and time come to the buyer, never to a number nobody vouched for.
    const pickupMessages = async () => (await messagesOf({ orderId: order.id })).filter((message) => message.kind === 'pickup_details');
    expect(await pickupMessages()).toEqual([expect.objectContaining({ channel: 'email', target: buyerEmail })]);

    // Confirmed afterwards, the number gets them by SMS too, in a message written with the confirmation.
    const confirmed = await confirmTaker(buyer, order.id, '+852 91234567');
    expect(confirmed.status, confirmed.text).toBe(200);
    const told = (await pickupMessages()).find((message) => message.target === '+852 91234567');
    expect(told).toMatchObject({ channel: 'sms' });
    await deliverPendingMessages();
    const [sms] = (await outboxOf('+852 91234567')).filter((entry) => entry.messageId === told?.id);
    expect(sms.body).toContain('Gate 3 ticket desk');
    expect(sms.body).toContain('Chan Tai Man');
    expect(sms.html).toBeNull();
  });
});

/** Sends a code to an order's taker number and confirms the number with it, as the buyer does on the order page. */
async function confirmTaker(client: TestClient, orderId: number, phone: string) {
  await allowAnotherCode(phone);
  const sent = await client.post(`/api/v1/orders/${orderId}/taker-phone/code`, {});
  expect(sent.status, sent.text).toBe(200);
  return client.post<OrderDetail>(`/api/v1/orders/${orderId}/taker-phone/confirm`, { code: await latestCode(phone) });
}

describe("confirming a pickup taker's number", () => {
  it("sends a code to the number of the buyer's own order only, and confirms it only with that code", async () => {
    const [listing] = await listingsWith('on_site');
    await addTickets(listing.listingId, 10);
    const phone = '+852 92345678';
    const order = await placeOrder(buyer, listing.listingId, 'on_site', '92345678');
    expect(order.taker).toEqual({ name: 'Chan Tai Man', phone, confirmed: false, confirmable: true });
    const codePath = `/api/v1/orders/${order.id}/taker-phone/code`;
    const confirmPath = `/api/v1/orders/${order.id}/taker-phone/confirm`;

    // Nobody else may send the number a code or confirm it: the order is not theirs to see.
    const stranger = await signedInClient('taker-stranger');
    expect((await stranger.post(codePath, {})).body).toMatchObject({ errorCode: 'order_not_found' });
    expect((await new TestClient().post(codePath, {})).status).toBe(401);
    expect(await outboxOf(phone)).toEqual([]);

    const sent = await buyer.post<{ resendAfterSeconds: number }>(codePath, {});
    expect(sent.status, sent.text).toBe(200);
    // The SMS is our words and the order number: nothing the buyer typed reaches the number.
    const [codeSms] = await outboxOf(phone);
    expect(codeSms.body).toContain(order.orderNo);
    expect(codeSms.body).not.toContain('Chan Tai Man');
    // Another code at once meets the sign-in codes' per-number limit.
    expect((await buyer.post(codePath, {})).body).toMatchObject({ errorCode: 'code_too_frequent' });

    const code = await latestCode(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await buyer.post(confirmPath, { code: wrong })).body).toMatchObject({ errorCode: 'code_wrong', field: 'code' });
    expect((await buyer.post(confirmPath, { code: '12' })).body).toMatchObject({ errorCode: 'code_invalid', field: 'code' });
    expect((await stranger.post(confirmPath, { code })).body).toMatchObject({ errorCode: 'order_not_found' });
    const confirmed = await buyer.post<OrderDetail>(confirmPath, { code });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect(confirmed.body.data.taker).toEqual({ name: 'Chan Tai Man', phone, confirmed: true, confirmable: false });
    // A confirmed number needs no more codes.
    await allowAnotherCode(phone);
    expect((await buyer.post(codePath, {})).body).toMatchObject({ errorCode: 'taker_phone_not_pending' });
    expect((await buyer.post(confirmPath, { code })).body).toMatchObject({ errorCode: 'taker_phone_not_pending' });

    // Confirmed before the tickets were handed over, the pickup details go to the taker alone.
    await pay(buyer, order);
    const pickupSeller = await sellerClient(listing.sellerId);
    const pickupTime = confirmed.body.data.session.startsAt - 3_600_000;
    expect((await fulfil(pickupSeller, order.id, { method: 'pickup', pickupAddress: 'Gate 5', pickupTime })).status).toBe(200);
    const told = (await messagesOf({ orderId: order.id })).filter((message) => message.kind === 'pickup_details');
    expect(told).toEqual([expect.objectContaining({ channel: 'sms', target: phone })]);
  });

  it("takes the buyer's own signed-in number as confirmed; an e-ticket order has no number to confirm", async () => {
    const owner = new TestClient();
    const userId = await signUp(owner, `taker-owner-${Date.now()}@example.com`);
    // The account's number, as a sign-in by phone code would have proven it.
    await env.DB.prepare("UPDATE users SET phone_country_code = '+852', phone = '93456789' WHERE id = ?").bind(userId).run();
    const [listing] = await listingsWith('on_site');
    await addTickets(listing.listingId, 10);
    const own = await placeOrder(owner, listing.listingId, 'on_site', '93456789');
    expect(own.taker).toMatchObject({ phone: '+852 93456789', confirmed: true, confirmable: false });
    const other = await placeOrder(owner, listing.listingId, 'on_site', '94567890');
    expect(other.taker).toMatchObject({ confirmed: false, confirmable: true });
    const eTicketOrder = await placeOrder(owner, eTicket.listingId);
    const refused = await owner.post(`/api/v1/orders/${eTicketOrder.id}/taker-phone/code`, {});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ errorCode: 'taker_phone_not_pending' });
  });
});

describe('reporting a failed delivery', () => {
  it('refunds the payment, voids the tickets and grants a compensation coupon worth the ticket amount', async () => {
    const order = await paidOrder(buyer, eTicket.listingId);
    expect((await fulfil(seller, order.id, { method: 'e_ticket' })).status).toBe(200);
    const before = Date.now();
    const failed = await fail(seller, order.id);
    expect(failed.status, failed.text).toBe(200);
    expect(failed.body.data.status).toBe('refunded');
    expect(failed.body.data.tickets.map((ticket) => ticket.status)).toEqual(['invalid', 'invalid']);

    const detail = (await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`)).body.data;
    expect(detail.status).toBe('refunded');
    expect(detail.refund).toMatchObject({ amount: order.cost.total, currency: order.cost.currency });
    expect(detail.closedAt).not.toBeNull();

    const payment = await env.DB.prepare(
      `SELECT p.status, p.refunded_at AS refundedAt, s.status AS providerStatus FROM payments p JOIN sandbox_payments s ON s.ref = p.provider_ref
       WHERE p.order_id = ?`,
    )
      .bind(order.id)
      .first<{ status: string; refundedAt: number | null; providerStatus: string }>();
    expect(payment).toMatchObject({ status: 'refunded', providerStatus: 'refunded' });
    expect(payment!.refundedAt).not.toBeNull();

    const coupon = await env.DB.prepare(
      `SELECT c.kind, c.amount, c.currency, c.purpose, c.valid_from AS validFrom, c.valid_to AS validTo, c.name_en AS nameEn, c.min_spend AS minSpend,
         uc.status, uc.user_id AS userId
       FROM user_coupons uc JOIN coupons c ON c.id = uc.coupon_id WHERE c.code = ?`,
    )
      .bind(`COMP-${order.orderNo}`)
      .all<Record<string, string | number>>();
    expect(coupon.results).toHaveLength(1);
    const [granted] = coupon.results;
    expect(granted).toMatchObject({
      kind: 'amount',
      amount: order.cost.ticketAmount,
      currency: order.cost.currency,
      purpose: 'compensation',
      minSpend: 0,
      status: 'unused',
      nameEn: `Guarantee compensation for order ${order.orderNo}`,
    });
    expect(Number(granted.validFrom)).toBeGreaterThanOrEqual(before);
    expect(Number(granted.validTo) - Number(granted.validFrom)).toBe(COMPENSATION_COUPON_DAYS * DAY_MS);
    expect(granted.userId).toBe(Number(buyer.cookies.get('pnid')));

    // The voucher still opens and says the tickets are void, with no code to scan.
    const voucher = await new TestClient().call<Voucher>(voucherPath(detail.voucherUrl!));
    expect(voucher.body.data.orderStatus).toBe('refunded');
    expect(voucher.body.data.tickets.map((ticket) => [ticket.status, ticket.entrySecret])).toEqual([
      ['invalid', null],
      ['invalid', null],
    ]);

    const twice = await fail(seller, order.id);
    expect(twice.status).toBe(409);
    expect(twice.body.errorCode).toBe('order_state_conflict');
    const coupons = await env.DB.prepare('SELECT COUNT(*) AS n FROM coupons WHERE code = ?')
      .bind(`COMP-${order.orderNo}`)
      .first<{ n: number }>();
    expect(coupons!.n).toBe(1);
  });

  it('gives back the coupon the refunded order spent, once', async () => {
    const couponBuyer = await signedInClient('fulfil-coupon-buyer');
    const quoted = await couponBuyer.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${eTicket.listingId}&quantity=2&deliveryType=e_ticket&coupon=best`,
    );
    const couponId = quoted.body.data.appliedCouponId;
    expect(couponId, 'a new account holds the new-user coupon, usable here').not.toBeNull();
    const placed = await couponBuyer.call<OrderDetail>('/api/v1/orders', {
      method: 'POST',
      headers: { 'idempotency-key': newKey() },
      body: {
        listingId: eTicket.listingId,
        quantity: 2,
        deliveryType: 'e_ticket',
        paymentMethod: 'visa',
        coupon: couponId,
        acceptNotes: true,
        expectedTotal: quoted.body.data.cost.total,
      },
    });
    expect(placed.status, placed.text).toBe(200);
    await pay(couponBuyer, placed.body.data);
    const couponStatus = async () =>
      await env.DB.prepare('SELECT status, order_id AS orderId FROM user_coupons WHERE id = ?').bind(couponId).first();
    expect(await couponStatus()).toEqual({ status: 'used', orderId: placed.body.data.id });

    expect((await fail(seller, placed.body.data.id)).status).toBe(200);
    expect(await couponStatus()).toEqual({ status: 'unused', orderId: null });
    expect((await fail(seller, placed.body.data.id)).status).toBe(409);
    expect(await couponStatus()).toEqual({ status: 'unused', orderId: null });
  });

  it('gives the money back later when the refund call failed: the sweep retries it after a grace period, once', async () => {
    const order = await paidOrder(buyer, eTicket.listingId);
    // The provider is down: its refund aborts.
    await env.DB.prepare(
      "CREATE TRIGGER test_refund_outage BEFORE UPDATE OF status ON sandbox_payments WHEN NEW.status = 'refunded' BEGIN SELECT RAISE(ABORT, 'provider unavailable'); END",
    ).run();
    try {
      // The seller's report stands; the money waits for the sweep.
      expect((await fail(seller, order.id)).status).toBe(200);
    } finally {
      await env.DB.prepare('DROP TRIGGER test_refund_outage').run();
    }
    const paymentStatus = async () =>
      await env.DB.prepare(
        'SELECT p.status, s.status AS providerStatus FROM payments p JOIN sandbox_payments s ON s.ref = p.provider_ref WHERE p.order_id = ?',
      )
        .bind(order.id)
        .first();
    expect((await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`)).body.data.status).toBe('refunded');
    expect(await paymentStatus()).toEqual({ status: 'succeeded', providerStatus: 'approved' });

    const db = database(env.DB);
    expect((await sweep(db, env, env.MESSAGES, Date.now())).retriedRefunds).toBe(0);
    const later = Date.now() + REFUND_RETRY_AFTER_MS + 1_000;
    expect((await sweep(db, env, env.MESSAGES, later)).retriedRefunds).toBeGreaterThanOrEqual(1);
    expect(await paymentStatus()).toEqual({ status: 'refunded', providerStatus: 'refunded' });
    expect((await sweep(db, env, env.MESSAGES, later)).retriedRefunds).toBe(0);
  });

  it('can fail an order still waiting for tickets, and not one still unpaid', async () => {
    const waiting = await paidOrder(buyer, eTicket.listingId);
    const failed = await fail(seller, waiting.id);
    expect(failed.body.data).toMatchObject({ status: 'refunded', tickets: [] });
    const unpaid = await placeOrder(buyer, eTicket.listingId);
    const early = await fail(seller, unpaid.id);
    expect(early.status).toBe(409);
    expect(early.body.errorCode).toBe('order_state_conflict');
    expect((await seller.post(`/api/v1/seller/orders/${waiting.id}/fail`, { reason: '  ' })).body).toMatchObject({
      errorCode: 'invalid_input',
      field: 'reason',
    });
  });
});

describe('the voucher link', () => {
  it('opens only with the key signed for its order: anything else is the same 404', async () => {
    const order = await paidOrder(buyer, eTicket.listingId);
    expect((await fulfil(seller, order.id, { method: 'e_ticket' })).status).toBe(200);
    const other = await paidOrder(buyer, eTicket.listingId);
    expect((await fulfil(seller, other.id, { method: 'e_ticket' })).status).toBe(200);
    const url = (await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`)).body.data.voucherUrl!;
    const otherUrl = (await buyer.call<OrderDetail>(`/api/v1/orders/${other.id}`)).body.data.voucherUrl!;
    const key = new URLSearchParams(url.split('?')[1]).get('key')!;
    const otherKey = new URLSearchParams(otherUrl.split('?')[1]).get('key')!;
    const visitor = new TestClient();
    expect((await visitor.call(voucherPath(url))).status).toBe(200);

    const refused = [
      `/api/v1/vouchers?order=${order.orderNo}&key=${otherKey}`,
      `/api/v1/vouchers?order=${order.orderNo}&key=${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`,
      `/api/v1/vouchers?order=${order.orderNo}`,
      `/api/v1/vouchers?key=${key}`,
      `/api/v1/vouchers?order=00000000000000000000&key=${key}`,
      `/api/v1/vouchers?order=${order.orderNo}&key=${'x'.repeat(500)}`,
      `/api/v1/vouchers?order=${encodeURIComponent("1' OR '1'='1")}&key=${key}`,
    ];
    for (const path of refused) {
      const answer = await visitor.call(path, { headers: { language: 'zh-HK' } });
      expect(answer.status, path).toBe(404);
      expect(answer.body, path).toMatchObject({ errorCode: 'voucher_not_found', message: '此電子票憑證連結無效。' });
    }
  });
});
