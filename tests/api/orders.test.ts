import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_FEE_BASIS_POINTS } from '../../src/lib/config/orders.ts';
import { TOKEN_COOKIE, USER_ID_COOKIE } from '../../src/lib/config/request.ts';
import { database } from '../../src/lib/data/client.ts';
import { countingRoundTrips } from '../../src/lib/data/measured-d1.ts';
import type { CheckoutQuote, OrderDetail, OrderPage } from '../../src/lib/services/orders/presenters.ts';
import { sweep } from '../../src/lib/services/platform/sweep.ts';
import { signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

interface Pick {
  listingId: number;
  activityId: number;
}

/** A listing anyone can buy now: active, its activity on sale and not real-name, its session ahead. */
async function buyableListing(options: { realName?: boolean; delivery?: string; skip?: number } = {}): Promise<Pick> {
  const row = await env.DB.prepare(
    `SELECT l.id AS listingId, a.id AS activityId FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND l.quantity_available >= 2 AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 86400000
       AND a.real_name_required = ?2 AND a.num_max >= 2 AND (?3 IS NULL OR instr(l.delivery_types, ?3) > 0)
     ORDER BY l.id LIMIT 1 OFFSET ?4`,
  )
    .bind(Date.now(), options.realName ? 1 : 0, options.delivery ?? null, options.skip ?? 0)
    .first<Pick>();
  if (!row) throw new Error('no buyable listing in the seed');
  return row;
}

async function stockOf(listingId: number): Promise<number> {
  const row = await env.DB.prepare('SELECT quantity_available AS available FROM listings WHERE id = ?')
    .bind(listingId)
    .first<{ available: number }>();
  return row!.available;
}

let keyCount = 0;
const newKey = () => `test-key-${Date.now()}-${++keyCount}`;

async function quote(client: TestClient, pick: Pick, query = '') {
  return client.call<CheckoutQuote>(`/api/v1/checkout/quote?listingId=${pick.listingId}&quantity=2${query}`);
}

async function order(client: TestClient, body: Record<string, unknown>, key = newKey()) {
  return client.call<OrderDetail>('/api/v1/orders', { method: 'POST', body, headers: { 'idempotency-key': key } });
}

/** The body of an e-ticket order for two tickets at the quoted total. */
async function eTicketOrder(client: TestClient, pick: Pick, extra: Record<string, unknown> = {}) {
  const quoted = await quote(client, pick, '&deliveryType=e_ticket&coupon=none');
  expect(quoted.status).toBe(200);
  return {
    listingId: pick.listingId,
    quantity: 2,
    deliveryType: 'e_ticket',
    paymentMethod: 'visa',
    coupon: 'none',
    acceptNotes: true,
    expectedTotal: quoted.body.data.cost.total,
    ...extra,
  };
}

let eTicket: Pick;

beforeAll(async () => {
  await seed();
  eTicket = await buyableListing({ delivery: 'e_ticket' });
  // Enough stock for every order this file places on it; the concurrency test uses a listing of its own.
  await env.DB.prepare('UPDATE listings SET quantity_available = 100, quantity_total = 100 WHERE id = ?').bind(eTicket.listingId).run();
});

describe('checkout quote', () => {
  it('needs a session', async () => {
    expect((await quote(new TestClient(), eTicket)).status).toBe(401);
  });

  it('prices tickets, the service fee and courier postage in the buyer currency', async () => {
    const client = await signedInClient('quote');
    // Without a coupon: every new account holds the new-user gift, which would be applied as the best offer.
    const plain = await quote(client, eTicket, '&deliveryType=e_ticket&coupon=none');
    const cost = plain.body.data.cost;
    expect(cost.ticketAmount).toBe(plain.body.data.unitPrice.amount * 2);
    // The fee is taken per ticket, so the total is twice the all-in price of one.
    const unitPrice = plain.body.data.unitPrice.amount;
    expect(cost.serviceFee).toBe(2 * Math.round((unitPrice * SERVICE_FEE_BASIS_POINTS) / 10_000));
    expect(cost.postage).toBe(0);
    expect(cost.total).toBe(cost.ticketAmount + cost.serviceFee);
    expect(cost.total).toBe(2 * plain.body.data.allInUnitPrice.amount);

    const courierPick = await buyableListing({ delivery: 'courier' });
    const courier = await client.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${courierPick.listingId}&quantity=1&deliveryType=courier`,
      { headers: { currency: 'USD' } },
    );
    expect(courier.body.data.cost.currency).toBe('USD');
    expect(courier.body.data.cost.postage).toBeGreaterThan(courier.body.data.cost.fuelSurcharge);
    expect(courier.body.data.cost.fuelSurcharge).toBeGreaterThan(0);
  });

  it('refuses quantities outside the limits and delivery types the seller does not offer', async () => {
    const client = await signedInClient('quote');
    const tooMany = await client.call(`/api/v1/checkout/quote?listingId=${eTicket.listingId}&quantity=50`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errorCode).toBe('quantity_out_of_range');
    const missing = await client.call('/api/v1/checkout/quote?listingId=99999999&quantity=1');
    expect(missing.body.errorCode).toBe('listing_not_found');
  });
});

describe('creating an order', () => {
  it('holds the tickets and answers a retry with the same order', async () => {
    const client = await signedInClient('create');
    const before = await stockOf(eTicket.listingId);
    const body = await eTicketOrder(client, eTicket);
    const key = newKey();
    const first = await order(client, body, key);
    expect(first.status).toBe(200);
    expect(first.body.data.status).toBe('pending_payment');
    expect(first.body.data.actions).toEqual({ pay: true, cancel: true, confirmReceipt: false, requestRefund: false });
    expect(first.body.data.paymentDeadline - first.body.data.createdAt).toBe(15 * 60 * 1000);
    const again = await order(client, body, key);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await stockOf(eTicket.listingId)).toBe(before - 2);
    // The creation's answer is made from the rows it wrote; it must equal a later read of the order.
    const read = await client.call<OrderDetail>(`/api/v1/orders/${first.body.data.id}`);
    expect(first.body.data).toEqual(read.body.data);
    expect(again.body.data).toEqual(read.body.data);
  });

  it('refuses a tampered total, unaccepted notes and a missing key, changing nothing', async () => {
    const client = await signedInClient('create');
    const before = await stockOf(eTicket.listingId);
    const body = await eTicketOrder(client, eTicket);
    const tampered = await order(client, { ...body, expectedTotal: 1 });
    expect(tampered.status).toBe(409);
    expect(tampered.body.errorCode).toBe('price_changed');
    const notes = await order(client, { ...body, acceptNotes: false });
    expect(notes.body).toMatchObject({ errorCode: 'buyer_notes_not_accepted', field: 'acceptNotes' });
    const noKey = await client.call('/api/v1/orders', { method: 'POST', body });
    expect(noKey.body.errorCode).toBe('idempotency_key_required');
    expect(await stockOf(eTicket.listingId)).toBe(before);
    const list = await client.call<OrderPage>('/api/v1/orders');
    expect(list.body.data.total).toBe(0);
  });

  it('binds an Idempotency-Key to its body: the same body answers the same order, another body a 422', async () => {
    const client = await signedInClient('keyreuse');
    const before = await stockOf(eTicket.listingId);
    const body = await eTicketOrder(client, eTicket);
    const key = newKey();
    const first = await order(client, body, key);
    expect(first.status, first.text).toBe(200);
    // The same fields in another order are the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect((await order(client, reordered, key)).body.data.id).toBe(first.body.data.id);
    for (const other of [
      { ...body, quantity: 1 },
      { ...body, paymentMethod: 'alipay' },
    ]) {
      const reused = await order(client, other, key);
      expect(reused.body).toMatchObject({
        code: 422,
        errorCode: 'idempotency_key_reused',
        message: 'This request was already sent with different details. Please reload the page and try again.',
      });
    }
    expect(await stockOf(eTicket.listingId)).toBe(before - 2);
    expect((await client.call<OrderPage>('/api/v1/orders')).body.data.total).toBe(1);
  });

  it('needs an address of your own for courier delivery and a taker for on-site pickup', async () => {
    const client = await signedInClient('create');
    const courierPick = await buyableListing({ delivery: 'courier' });
    const quoted = await client.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${courierPick.listingId}&quantity=1&deliveryType=courier&coupon=none`,
    );
    const body = {
      listingId: courierPick.listingId,
      quantity: 1,
      deliveryType: 'courier',
      paymentMethod: 'alipay',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quoted.body.data.cost.total,
    };
    const noAddress = await order(client, body);
    expect(noAddress.body).toMatchObject({ errorCode: 'delivery_address_required', field: 'addressId' });
    expect(noAddress.body.message).toBe('Please select delivery address!');

    const stranger = await signedInClient('create');
    const theirs = await stranger.post<{ id: number }>('/api/v1/addresses', {
      name: 'Chan Tai Man',
      phoneCountryCode: '+852',
      phone: '91234567',
      countryCode: 'HK',
      district: 'WC',
      street: "1 Queen's Road East",
    });
    expect((await order(client, { ...body, addressId: theirs.body.data.id })).status).toBe(404);

    const mine = await client.post<{ id: number }>('/api/v1/addresses', {
      name: 'Lee Siu Ming',
      phoneCountryCode: '+852',
      phone: '61234567',
      countryCode: 'HK',
      district: 'WC',
      street: '2 Hennessy Road',
    });
    const shipped = await order(client, { ...body, addressId: mine.body.data.id });
    expect(shipped.status).toBe(200);
    expect(shipped.body.data.shippingAddress).toMatchObject({ name: 'Lee Siu Ming' });
    expect(shipped.body.data.cost.postage).toBeGreaterThan(0);

    const onSitePick = await buyableListing({ delivery: 'on_site' });
    const onSiteQuote = await client.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${onSitePick.listingId}&quantity=1&deliveryType=on_site&coupon=none`,
    );
    const onSite = {
      listingId: onSitePick.listingId,
      quantity: 1,
      deliveryType: 'on_site',
      paymentMethod: 'wechat_pay',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: onSiteQuote.body.data.cost.total,
    };
    expect((await order(client, onSite)).body).toMatchObject({ errorCode: 'name_required', field: 'takerName' });
    expect((await order(client, { ...onSite, takerName: 'Chan', takerPhone: '12' })).body).toMatchObject({
      errorCode: 'phone_invalid',
      field: 'takerPhone',
    });
    // The name goes out in the pickup SMS: a name only, never a link.
    const spam = await order(client, {
      ...onSite,
      takerName: 'Prize at evil.example',
      takerPhoneCountryCode: '+852',
      takerPhone: '91234567',
    });
    expect(spam.body).toMatchObject({ code: 400, errorCode: 'name_invalid', field: 'takerName' });
    const taken = await order(client, { ...onSite, takerName: 'Chan', takerPhoneCountryCode: '+852', takerPhone: '91234567' });
    expect(taken.body.data.taker).toEqual({ name: 'Chan', phone: '+852 91234567', confirmed: false, confirmable: true });
    expect(taken.body.data.pickup?.from).toBe(onSiteQuote.body.data.onSitePickupFrom);
  });

  it('requires one attendee per ticket, with the ID type the venue country asks for, on a real-name event', async () => {
    const client = await signedInClient('realname');
    const pick = await buyableListing({ realName: true, delivery: 'e_ticket' });
    const quoted = await client.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${pick.listingId}&quantity=1&deliveryType=e_ticket&coupon=none`,
    );
    expect(quoted.body.data.attendeesRequired).toBe(1);
    const venueCountry = quoted.body.data.activity.venueCountry;
    expect(venueCountry).not.toBe('JP');
    const body = {
      listingId: pick.listingId,
      quantity: 1,
      deliveryType: 'e_ticket',
      paymentMethod: 'visa',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quoted.body.data.cost.total,
    };
    expect((await order(client, body)).body).toMatchObject({ errorCode: 'attendees_required', field: 'attendeeIds' });

    const local = await client.post<{ id: number }>('/api/v1/attendees', {
      name: 'Lam Ka Yan',
      nationality: venueCountry,
      idCardType: 'passport',
      idCardNo: 'K12345678',
    });
    expect(local.status).toBe(200);
    expect((await order(client, { ...body, attendeeIds: [local.body.data.id] })).body.errorCode).toBe('attendee_id_type_mismatch');

    const visitor = await client.post<{ id: number }>('/api/v1/attendees', {
      name: 'Wang Fang',
      nationality: 'JP',
      idCardType: 'passport',
      idCardNo: 'TZ1234567',
    });
    const placed = await order(client, { ...body, attendeeIds: [visitor.body.data.id] });
    expect(placed.status).toBe(200);
    expect(placed.body.data.attendees).toEqual([
      { name: 'Wang Fang', idCardType: 'passport', idCardNoMasked: expect.stringMatching(/\*/) },
    ]);
    expect(placed.body.data).toEqual((await client.call<OrderDetail>(`/api/v1/orders/${placed.body.data.id}`)).body.data);
  });
});

describe('round trips', () => {
  // The far-region cost of checkout (docs/performance.md): a quote reads the session with its rows;
  // an order reads them so, then writes the order with the after-write work in one batch. Each extra
  // D1 call would add a round trip to a far primary and a queue wait behind a busy worker.
  it('quotes in one round trip and orders in two, its after-write work included', async () => {
    const client = await signedInClient('trips');
    const quoted = await countingRoundTrips(() => quote(client, eTicket, '&deliveryType=e_ticket&coupon=none'));
    expect(quoted.result.status).toBe(200);
    expect(quoted.roundTrips).toBe(1);
    const body = await eTicketOrder(client, eTicket);
    const placed = await countingRoundTrips(() => order(client, body));
    expect(placed.result.status, placed.result.text).toBe(200);
    expect(placed.roundTrips).toBe(2);
    // The after-write work rode in the order's batch: its "placed" message is already claimed for the queue.
    const message = await env.DB.prepare(`SELECT enqueued_at AS enqueuedAt FROM messages WHERE order_id = ? AND kind = 'order_placed'`)
      .bind(placed.result.body.data.id)
      .first<{ enqueuedAt: number | null }>();
    expect(message?.enqueuedAt).not.toBeNull();
  });

  it('still places the order when its after-write work fails, sending the order alone', async () => {
    const client = await signedInClient('trips');
    const body = await eTicketOrder(client, eTicket);
    const before = await stockOf(eTicket.listingId);
    // The outbox claim, last in the order's batch, fails: the batch is sent again without the after-write work.
    await env.DB.prepare(
      `CREATE TRIGGER relay_down BEFORE UPDATE OF enqueued_at ON messages BEGIN SELECT RAISE(ABORT, 'relay down'); END`,
    ).run();
    try {
      const placed = await countingRoundTrips(() => order(client, body));
      expect(placed.result.status, placed.result.text).toBe(200);
      // The failed batch, the order alone, then the API's own after-write pass (which fails, logged).
      expect(placed.roundTrips).toBe(4);
    } finally {
      await env.DB.prepare('DROP TRIGGER relay_down').run();
    }
    expect(await stockOf(eTicket.listingId)).toBe(before - 2);
    expect((await client.call<OrderPage>('/api/v1/orders')).body.data.total).toBe(1);
  });

  it("goes by the session, never by the user id cookie: another id is read again for the session's user, no session is a 401", async () => {
    const first = await signedInClient('claim');
    const second = await signedInClient('claim');
    const body = await eTicketOrder(first, eTicket);
    const key = newKey();
    const mine = await order(first, body, key);
    expect(mine.status).toBe(200);
    // The second buyer's token with the first buyer's id and key: a new order of the second buyer, not the first's.
    const claiming = new TestClient();
    claiming.cookies.set(TOKEN_COOKIE, second.cookies.get(TOKEN_COOKIE)!);
    claiming.cookies.set(USER_ID_COOKIE, first.cookies.get(USER_ID_COOKIE)!);
    const theirs = await countingRoundTrips(() => order(claiming, body, key));
    expect(theirs.result.status, theirs.result.text).toBe(200);
    expect(theirs.result.body.data.id).not.toBe(mine.body.data.id);
    expect(theirs.roundTrips).toBe(3);
    expect((await second.call<OrderPage>('/api/v1/orders')).body.data.total).toBe(1);
    expect((await first.call<OrderPage>('/api/v1/orders')).body.data.total).toBe(1);
    // Without an id cookie the session is read first; with a dead token, nothing is answered.
    const tokenOnly = new TestClient();
    tokenOnly.cookies.set(TOKEN_COOKIE, second.cookies.get(TOKEN_COOKIE)!);
    expect((await quote(tokenOnly, eTicket)).status).toBe(200);
    const forged = new TestClient();
    forged.cookies.set(TOKEN_COOKIE, 'forged-token');
    forged.cookies.set(USER_ID_COOKIE, first.cookies.get(USER_ID_COOKIE)!);
    const refused = await order(forged, body, key);
    expect(refused.status).toBe(401);
    expect((await quote(forged, eTicket)).status).toBe(401);
  });
});

describe('coupons at checkout', () => {
  it('preselects the best usable coupon, locks it to the order and gives it back on cancel', async () => {
    const client = await signedInClient('coupon');
    const userId = Number(client.cookies.get('pnid'));
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO user_coupons (user_id, coupon_id, status) SELECT ?, id, 'unused' FROM coupons WHERE code IN ('SHOWTIME85', 'SAVE50', 'TAIPEI200')`,
      ).bind(userId),
    ]);
    const quoted = await quote(client, eTicket, '&deliveryType=e_ticket');
    const options = quoted.body.data.coupons;
    // The three given here and the new-user gift every account receives.
    expect(options).toHaveLength(4);
    const best = options.filter((option) => option.usable).sort((a, b) => b.discount!.amount - a.discount!.amount)[0];
    expect(quoted.body.data.bestCouponId).toBe(best.userCouponId);
    expect(quoted.body.data.cost.couponDiscount).toBe(best.discount!.amount);
    expect(options.find((option) => option.percentOff === 15)).toBeTruthy();

    const body = {
      listingId: eTicket.listingId,
      quantity: 2,
      deliveryType: 'e_ticket',
      paymentMethod: 'visa',
      coupon: best.userCouponId,
      acceptNotes: true,
      expectedTotal: quoted.body.data.cost.total,
    };
    const placed = await order(client, body);
    expect(placed.status).toBe(200);
    expect(placed.body.data.cost.couponDiscount).toBe(best.discount!.amount);
    const again = await order(client, body);
    expect(again.body.errorCode).toBe('coupon_not_usable');

    await client.post(`/api/v1/orders/${placed.body.data.id}/cancel`, {});
    const after = await quote(client, eTicket, '&deliveryType=e_ticket');
    expect(after.body.data.coupons.map((option) => option.userCouponId)).toContain(best.userCouponId);
  });
});

describe('the order state machine', () => {
  it('cancels a pending order once, gives the tickets back, and refuses what the state does not allow', async () => {
    const client = await signedInClient('state');
    const before = await stockOf(eTicket.listingId);
    const placed = await order(client, await eTicketOrder(client, eTicket));
    const id = placed.body.data.id;
    const receipt = await client.post(`/api/v1/orders/${id}/confirm-receipt`, {});
    expect(receipt.body.errorCode).toBe('order_state_conflict');
    const cancelled = await client.post<OrderDetail>(`/api/v1/orders/${id}/cancel`, {});
    expect(cancelled.body.data).toMatchObject({
      status: 'cancelled',
      cancelReason: 'user',
      actions: { pay: false, cancel: false, confirmReceipt: false },
    });
    expect(await stockOf(eTicket.listingId)).toBe(before);
    const twice = await client.post(`/api/v1/orders/${id}/cancel`, {});
    expect(twice.status).toBe(409);
    expect(await stockOf(eTicket.listingId)).toBe(before);
  });

  it('shows an order only to its owner', async () => {
    const owner = await signedInClient('state');
    const placed = await order(owner, await eTicketOrder(owner, eTicket));
    const other = await signedInClient('state');
    for (const answer of [
      await other.call(`/api/v1/orders/${placed.body.data.id}`),
      await other.post(`/api/v1/orders/${placed.body.data.id}/cancel`, {}),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.body.errorCode).toBe('order_not_found');
    }
    expect((await owner.call<OrderDetail>(`/api/v1/orders/${placed.body.data.id}`)).body.data.status).toBe('pending_payment');
  });

  it('expires unpaid orders after the deadline, lazily on read and by the sweep, releasing the hold', async () => {
    const client = await signedInClient('expiry');
    const before = await stockOf(eTicket.listingId);
    const lazy = await order(client, await eTicketOrder(client, eTicket));
    const swept = await order(client, await eTicketOrder(client, eTicket));
    expect(await stockOf(eTicket.listingId)).toBe(before - 4);
    const past = Date.now() - 1000;
    await env.DB.prepare('UPDATE orders SET payment_deadline = ? WHERE id IN (?, ?)')
      .bind(past, lazy.body.data.id, swept.body.data.id)
      .run();

    const result = await sweep(database(env.DB), env, env.MESSAGES, Date.now());
    expect(result.expiredOrders).toBeGreaterThanOrEqual(2);
    const read = await client.call<OrderDetail>(`/api/v1/orders/${lazy.body.data.id}`);
    expect(read.body.data).toMatchObject({ status: 'cancelled', cancelReason: 'timeout' });
    expect(await stockOf(eTicket.listingId)).toBe(before);
  });

  it('expires on read without the sweep', async () => {
    const client = await signedInClient('expiry');
    const before = await stockOf(eTicket.listingId);
    const placed = await order(client, await eTicketOrder(client, eTicket));
    await env.DB.prepare('UPDATE orders SET payment_deadline = ? WHERE id = ?')
      .bind(Date.now() - 1, placed.body.data.id)
      .run();
    const list = await client.call<OrderPage>('/api/v1/orders?tab=cancelled');
    expect(list.body.data.items.map((item) => item.id)).toEqual([placed.body.data.id]);
    expect(await stockOf(eTicket.listingId)).toBe(before);
  });
});

describe('the order list', () => {
  it('pages by tab and finds orders by number or show name', async () => {
    const client = await signedInClient('list');
    const first = await order(client, await eTicketOrder(client, eTicket));
    const second = await order(client, await eTicketOrder(client, eTicket));
    await client.post(`/api/v1/orders/${first.body.data.id}/cancel`, {});

    const all = await client.call<OrderPage>('/api/v1/orders?tab=all');
    expect(all.body.data.items.map((item) => item.id)).toEqual([second.body.data.id, first.body.data.id]);
    const pending = await client.call<OrderPage>('/api/v1/orders?tab=pending_payment');
    expect(pending.body.data.items.map((item) => item.id)).toEqual([second.body.data.id]);
    const byNumber = await client.call<OrderPage>(`/api/v1/orders?keyword=${first.body.data.orderNo}`);
    expect(byNumber.body.data.items.map((item) => item.id)).toEqual([first.body.data.id]);
    const name = first.body.data.activity.name.slice(0, 6);
    const byName = await client.call<OrderPage>(`/api/v1/orders?keyword=${encodeURIComponent(name)}`);
    expect(byName.body.data.total).toBe(2);
    const wildcard = await client.call<OrderPage>('/api/v1/orders?keyword=%25');
    expect(wildcard.body.data.total).toBe(0);
    const inChinese = await client.call<OrderDetail>(`/api/v1/orders/${second.body.data.id}`, { headers: { language: 'zh-HK' } });
    const fullName = await client.call<OrderPage>(`/api/v1/orders?keyword=${encodeURIComponent(inChinese.body.data.activity.name)}`);
    expect(fullName.body.data.total).toBe(2);
    const longChinese = await client.call<OrderPage>(`/api/v1/orders?keyword=${encodeURIComponent('演唱會'.repeat(16))}`);
    expect(longChinese.status).toBe(200);
    expect(longChinese.body.data.total).toBe(0);
    expect((await client.call('/api/v1/orders?tab=unknown')).status).toBe(400);
  });
});

describe('under concurrent buyers', () => {
  it('sells exactly the 10 tickets of a listing to 200 simultaneous attempts', async () => {
    const pick = await buyableListing({ delivery: 'e_ticket', skip: 3 });
    await env.DB.prepare('UPDATE listings SET quantity_available = 10, quantity_total = 10 WHERE id = ?').bind(pick.listingId).run();
    const buyers = await Promise.all(Array.from({ length: 20 }, () => signedInClient('rush')));
    const quoted = await buyers[0].call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${pick.listingId}&quantity=1&deliveryType=e_ticket&coupon=none`,
    );
    const body = {
      listingId: pick.listingId,
      quantity: 1,
      deliveryType: 'e_ticket',
      paymentMethod: 'visa',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quoted.body.data.cost.total,
    };

    const attempts = await Promise.all(Array.from({ length: 200 }, (_, index) => order(buyers[index % buyers.length], body)));
    const won = attempts.filter((answer) => answer.status === 200);
    const refused = attempts.filter((answer) => answer.status === 409);
    expect(won).toHaveLength(10);
    expect(refused).toHaveLength(190);
    expect(new Set(refused.map((answer) => answer.body.errorCode))).toEqual(new Set(['tickets_sold_out']));
    expect(await stockOf(pick.listingId)).toBe(0);
    const sold = await env.DB.prepare(
      `SELECT COALESCE(SUM(quantity), 0) AS sold FROM orders WHERE listing_id = ? AND status = 'pending_payment'`,
    )
      .bind(pick.listingId)
      .first<{ sold: number }>();
    expect(sold!.sold).toBe(10);
  }, 60_000);
});

describe('ending the payment time (local builds only)', () => {
  it('expires the unpaid order at once in a local build, and does not exist in production', async () => {
    const client = await signedInClient('endtime');
    const placed = await order(client, await eTicketOrder(client, eTicket));
    const production = new TestClient({ APP_ENV: 'production' });
    for (const [name, value] of client.cookies) production.cookies.set(name, value);
    expect((await production.post(`/api/v1/dev/orders/${placed.body.data.id}/end-payment-time`, {})).status).toBe(404);
    const ended = await client.post<OrderDetail>(`/api/v1/dev/orders/${placed.body.data.id}/end-payment-time`, {});
    expect(ended.body.data).toMatchObject({ status: 'cancelled', cancelReason: 'timeout' });
    expect((await client.post(`/api/v1/dev/orders/${placed.body.data.id}/end-payment-time`, {})).status).toBe(409);
  });
});
