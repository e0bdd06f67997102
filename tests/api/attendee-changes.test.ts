import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { currentEntryCode, entryPayload } from '../../src/lib/domain/entry-code.ts';
import type { Admission } from '../../src/lib/services/gate/admission.ts';
import type { AttendeeChangeView, OrderAttendeeChanges } from '../../src/lib/services/orders/attendee-changes.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { sellerClient, signedInClient, type TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { deliverPendingMessages, messagesOf, outboxOf } from './messages.ts';
import { eTicketSource, newKey, pay, placeOrder, voucherOf } from './shop.ts';

const HOUR = 3600 * 1000;

interface RealNameSource {
  listingId: number;
  sellerId: number;
  sessionId: number;
  startsAt: number;
}

let source: RealNameSource;
let venueCountry: string;
let seller: TestClient;
let buyer: TestClient;
let stranger: TestClient;
let operator: TestClient;
let order: OrderDetail;

/** A real-name e-ticket listing on sale for two tickets, its show well beyond the cut-off. */
async function realNameSource(): Promise<RealNameSource> {
  const found = await env.DB.prepare(
    `SELECT l.id AS listingId, l.seller_id AS sellerId, s.id AS sessionId, s.starts_at AS startsAt FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND l.source_order_id IS NULL AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 7 * 86400000
       AND a.real_name_required = 1 AND a.num_min <= 1 AND a.num_max >= 2 AND instr(l.delivery_types, 'e_ticket') > 0
     ORDER BY l.id LIMIT 1`,
  )
    .bind(Date.now())
    .first<RealNameSource>();
  if (!found) throw new Error('The seed has no real-name e-ticket listing to buy from');
  await env.DB.prepare('UPDATE listings SET quantity_available = 500, quantity_total = 500 WHERE id = ?').bind(found.listingId).run();
  return found;
}

/** An attendee the venue admits: a visitor showing a passport (the venue is never in Japan, checked below). */
const visitor = (name: string, idCardNo: string) => ({ name, nationality: 'JP', idCardType: 'passport', idCardNo });

const changes = (client: TestClient, orderId = order.id) => client.call<OrderAttendeeChanges>(`/api/v1/orders/${orderId}/attendee-changes`);
const ask = (client: TestClient, body: Record<string, unknown>, language = 'en', orderId = order.id) =>
  client.call<AttendeeChangeView>(`/api/v1/orders/${orderId}/attendee-changes`, { method: 'POST', body, headers: { language } });
const decide = (client: TestClient, id: number, decision: 'approve' | 'refuse') =>
  client.post<AttendeeChangeView>(`/api/v1/attendee-changes/${id}/decision`, { decision });
const withdraw = (client: TestClient, id: number) => client.post<AttendeeChangeView>(`/api/v1/attendee-changes/${id}/withdraw`, {});
const admit = (code: string) => seller.post<Admission>(`/api/v1/gate/sessions/${source.sessionId}/admissions`, { code });

async function attendeeIds(): Promise<[number, number]> {
  const { attendees } = (await changes(buyer)).body.data;
  expect(attendees).toHaveLength(2);
  return [attendees[0].id, attendees[1].id];
}

/** Each ticket's entry secret as the voucher delivers it (null once the ticket is used). */
async function entrySecrets(orderId = order.id): Promise<Array<string | null>> {
  return (await voucherOf(buyer, orderId)).tickets.map((ticket) => ticket.entrySecret);
}

/** What each ticket's voucher QR code carries now: its number and current rotating code (a used ticket's voucher shows none). */
async function entryScans(orderId = order.id): Promise<string[]> {
  const { tickets } = await voucherOf(buyer, orderId);
  return Promise.all(
    tickets.map(async ({ ticketNo, entrySecret }) =>
      entrySecret ? entryPayload(ticketNo, await currentEntryCode(entrySecret, Date.now())) : '',
    ),
  );
}

/** A paid real-name order of the buyer's, its e-tickets issued, one visitor attendee per ticket ([name, passport number]). */
async function ticketedRealNameOrder(people: Array<[string, string]>): Promise<OrderDetail> {
  const quoted = await buyer.call<CheckoutQuote>(
    `/api/v1/checkout/quote?listingId=${source.listingId}&quantity=${people.length}&deliveryType=e_ticket&coupon=none`,
  );
  expect(quoted.status, quoted.text).toBe(200);
  venueCountry = quoted.body.data.activity.venueCountry;
  expect(venueCountry).not.toBe('JP');
  const ids: number[] = [];
  for (const [name, number] of people) {
    ids.push((await buyer.post<{ id: number }>('/api/v1/attendees', visitor(name, number))).body.data.id);
  }
  const placed = await buyer.call<OrderDetail>('/api/v1/orders', {
    method: 'POST',
    headers: { 'idempotency-key': newKey() },
    body: {
      listingId: source.listingId,
      quantity: people.length,
      deliveryType: 'e_ticket',
      paymentMethod: 'visa',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quoted.body.data.cost.total,
      attendeeIds: ids,
    },
  });
  expect(placed.status, placed.text).toBe(200);
  await pay(buyer, placed.body.data.id);
  const fulfilled = await seller.post(`/api/v1/seller/orders/${placed.body.data.id}/fulfil`, { method: 'e_ticket' });
  expect(fulfilled.status, fulfilled.text).toBe(200);
  return placed.body.data;
}

beforeAll(async () => {
  await seed();
  source = await realNameSource();
  seller = await sellerClient(source.sellerId);
  buyer = await signedInClient('change-buyer');
  stranger = await signedInClient('change-stranger');
  operator = await signedInClient('change-operator');
  await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)")
    .bind(Number(operator.cookies.get('pnid')))
    .run();

  order = await ticketedRealNameOrder([
    ['Sato Hana', 'TR1234567'],
    ['Suzuki Ken', 'TR7654321'],
  ]);
});

describe('asking for a change', () => {
  it('shows the order page what may change and until when', async () => {
    const answer = await changes(buyer);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.refusal).toBeNull();
    expect(answer.body.data.deadline).toBe(source.startsAt - 48 * HOUR);
    expect(answer.body.data.attendees.map((attendee) => [attendee.name, attendee.changeable, attendee.ticketNo])).toEqual([
      ['Sato Hana', true, expect.stringMatching(/-01$/)],
      ['Suzuki Ken', true, expect.stringMatching(/-02$/)],
    ]);
    expect(answer.body.data.attendees[0].idCardNoMasked).toBe('TR*****67');
  });

  it('is refused on an order that names no attendees, saying why', async () => {
    const plain = await eTicketSource();
    const placed = await placeOrder(buyer, plain.listingId, 1);
    const plainOrder = placed.body.data as OrderDetail;
    await pay(buyer, plainOrder.id);
    expect((await changes(buyer, plainOrder.id)).body.data).toMatchObject({ refusal: 'attendee_change_not_real_name', attendees: [] });
    const refused = await buyer.call(`/api/v1/orders/${plainOrder.id}/attendee-changes`, {
      method: 'POST',
      body: { orderAttendeeId: 1, ...visitor('Ito Yui', 'TR1111111') },
      headers: { language: 'zh-HK' },
    });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ errorCode: 'attendee_change_not_real_name', message: '此訂單的門票不設實名，沒有觀演人可更換。' });
  });

  it('checks the new attendee like a new one: an invalid ID refused with a localized error naming the field', async () => {
    const [first] = await attendeeIds();
    const invalid = await ask(buyer, { orderAttendeeId: first, ...visitor('Ito Yui', 'X12') }, 'zh-HK');
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ errorCode: 'id_number_invalid', field: 'idCardNo', message: '證件號碼格式錯誤' });
    const english = await ask(buyer, { orderAttendeeId: first, ...visitor('Ito Yui', 'X12') });
    expect(english.body.message).toBe('Incorrect ID number format');
    expect((await ask(buyer, { orderAttendeeId: first, ...visitor('', 'TR1111111') })).body).toMatchObject({
      errorCode: 'name_required',
      field: 'name',
    });
    // A national of the venue's country shows their ID card there, not a passport.
    const wrongType = await ask(buyer, {
      orderAttendeeId: first,
      name: 'Local Fan',
      nationality: venueCountry,
      idCardType: 'passport',
      idCardNo: 'K1234567',
    });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body).toMatchObject({ errorCode: 'attendee_change_id_type_mismatch', field: 'idCardType' });
    expect(wrongType.body.message).toContain('ID Card');
    expect((await ask(buyer, { orderAttendeeId: first, ...visitor('Sato Hana', 'tr 1234567') })).body.errorCode).toBe(
      'attendee_change_same_person',
    );
    // Another order's attendee (or a made-up one) is not this order's.
    expect((await ask(buyer, { orderAttendeeId: 999_999, ...visitor('Ito Yui', 'TR1111111') })).body).toMatchObject({
      errorCode: 'attendee_not_found',
      field: 'orderAttendeeId',
    });
    expect((await changes(buyer)).body.data.requests).toEqual([]);
  });

  it('is for the buyer only: anyone else asking is told the order does not exist', async () => {
    const [first] = await attendeeIds();
    const answer = await stranger.post(`/api/v1/orders/${order.id}/attendee-changes`, {
      orderAttendeeId: first,
      ...visitor('Ito Yui', 'TR1111111'),
    });
    expect(answer.status).toBe(404);
    expect((await changes(stranger)).status).toBe(404);
  });
});

describe('a waiting request', () => {
  it('is one per ticket, visible to the buyer, the seller and operators only, and withdrawable by the buyer', async () => {
    const [, second] = await attendeeIds();
    const asked = await ask(buyer, { orderAttendeeId: second, ...visitor(' Ito Yui ', 'tr1111111') });
    expect(asked.status, asked.text).toBe(200);
    const request = asked.body.data;
    expect(request).toMatchObject({
      status: 'pending',
      ticketNo: expect.stringMatching(/-02$/),
      from: { name: 'Suzuki Ken', idCardNoMasked: 'TR*****21' },
      to: { name: 'Ito Yui', nationality: 'JP', idCardType: 'passport', idCardNoMasked: 'TR*****11' },
      decidedAt: null,
    });
    const again = await ask(buyer, { orderAttendeeId: second, ...visitor('Mori Aoi', 'TR2222222') });
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('attendee_change_pending');
    expect((await changes(buyer)).body.data.attendees[1]).toMatchObject({ changeable: false, pending: { id: request.id } });

    for (const client of [buyer, seller, operator]) {
      expect((await client.call(`/api/v1/attendee-changes/${request.id}`)).status).toBe(200);
    }
    expect((await seller.call<AttendeeChangeView[]>('/api/v1/attendee-changes')).body.data.map((item) => item.id)).toContain(request.id);
    expect((await operator.call<AttendeeChangeView[]>('/api/v1/attendee-changes')).body.data.map((item) => item.id)).toContain(request.id);
    expect((await stranger.call<AttendeeChangeView[]>('/api/v1/attendee-changes')).body.data).toEqual([]);
    expect((await buyer.call<AttendeeChangeView[]>('/api/v1/attendee-changes')).body.data).toEqual([]);
    const hidden = await stranger.call(`/api/v1/attendee-changes/${request.id}`);
    expect(hidden.status).toBe(404);
    expect(hidden.body.errorCode).toBe('attendee_change_not_found');
    expect((await decide(stranger, request.id, 'approve')).status).toBe(404);
    expect((await withdraw(stranger, request.id)).status).toBe(404);
    // The buyer cannot approve their own request.
    expect((await decide(buyer, request.id, 'approve')).status).toBe(403);

    const withdrawn = await withdraw(buyer, request.id);
    expect(withdrawn.body.data).toMatchObject({ status: 'withdrawn', decidedAt: expect.any(Number) });
    expect((await withdraw(buyer, request.id)).body.errorCode).toBe('attendee_change_decided');
    expect((await decide(seller, request.id, 'approve')).body.errorCode).toBe('attendee_change_decided');
    // The full new ID number is not kept once the request is over.
    const stored = await env.DB.prepare('SELECT new_id_card_no AS number, new_id_hash AS hash FROM attendee_change_requests WHERE id = ?')
      .bind(request.id)
      .first<{ number: string | null; hash: string }>();
    expect(stored).toEqual({ number: null, hash: expect.not.stringContaining('1111111') });
  });

  it('refused by the seller leaves the attendee and the code as they were, and tells the buyer', async () => {
    const [, second] = await attendeeIds();
    const [, secretBefore] = await entrySecrets();
    const request = (await ask(buyer, { orderAttendeeId: second, ...visitor('Mori Aoi', 'TR2222222') })).body.data;
    const refused = await decide(seller, request.id, 'refuse');
    expect(refused.status, refused.text).toBe(200);
    expect(refused.body.data.status).toBe('refused');
    expect((await decide(operator, request.id, 'approve')).body.errorCode).toBe('attendee_change_decided');
    expect((await changes(buyer)).body.data.attendees[1]).toMatchObject({ name: 'Suzuki Ken', changeable: true, pending: null });
    expect((await entrySecrets())[1]).toBe(secretBefore);
    const told = (await messagesOf({ orderId: order.id })).filter((message) => message.kind === 'attendee_change_refused');
    expect(told).toHaveLength(1);
    expect(JSON.parse(told[0].payload)).toEqual({ attendee: 'Mori Aoi' });
  });
});

describe('approval', () => {
  it('happens once under concurrent approvals: the attendee changes, the old code stops admitting and the new one admits', async () => {
    const [first] = await attendeeIds();
    const [oldSecret] = await entrySecrets();
    const [oldCode] = await entryScans();
    const request = (await ask(buyer, { orderAttendeeId: first, ...visitor('Ito Yui', 'TR1111111') })).body.data;

    const racing = await Promise.all([
      ...Array.from({ length: 4 }, () => decide(seller, request.id, 'approve')),
      ...Array.from({ length: 4 }, () => decide(operator, request.id, 'approve')),
    ]);
    expect(racing.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(racing.filter((answer) => answer.body.errorCode === 'attendee_change_decided')).toHaveLength(7);

    const after = (await changes(buyer)).body.data;
    expect(after.attendees[0]).toMatchObject({ name: 'Ito Yui', nationality: 'JP', idCardNoMasked: 'TR*****11', pending: null });
    expect(after.requests.find((item) => item.id === request.id)).toMatchObject({ status: 'approved', decidedAt: expect.any(Number) });
    const detail = (await buyer.call<OrderDetail>(`/api/v1/orders/${order.id}`)).body.data;
    expect(detail.attendees[0].name).toBe('Ito Yui');
    // The voucher is reissued: a new entry secret, so the old voucher's codes are refused at once.
    const [newSecret] = await entrySecrets();
    expect(newSecret).not.toBe(oldSecret);
    const [newCode] = await entryScans();
    const old = await admit(oldCode);
    expect(old.status).toBe(409);
    expect(old.body.errorCode).toBe('entry_code_expired');
    const admitted = await admit(newCode);
    expect(admitted.status, admitted.text).toBe(200);
    expect(admitted.body.data.ticketNo).toBe(after.attendees[0].ticketNo);

    // A used ticket takes no new attendee.
    expect((await changes(buyer)).body.data.attendees[0].changeable).toBe(false);
    expect((await ask(buyer, { orderAttendeeId: first, ...visitor('Mori Aoi', 'TR2222222') })).body.errorCode).toBe(
      'attendee_change_ticket_unavailable',
    );
    const told = (await messagesOf({ orderId: order.id })).filter((message) => message.kind === 'attendee_change_approved');
    expect(told).toHaveLength(1);
    // Delivered, it names the new attendee and links to the reissued voucher.
    await deliverPendingMessages();
    const [mail] = (await outboxOf(told[0].target)).filter((entry) => entry.messageId === told[0].id);
    expect(mail.subject).toBe(`Attendee changed: order ${order.orderNo}`);
    expect(mail.body).toContain('Ito Yui');
    expect(mail.body).toMatch(/\/voucher\?order=/);
  });

  it('is closed from 48 hours before the show: asking and approving are refused, withdrawing is not', async () => {
    const [, second] = await attendeeIds();
    const request = (await ask(buyer, { orderAttendeeId: second, ...visitor('Mori Aoi', 'TR2222222') })).body.data;
    const setStart = (startsAt: number) =>
      env.DB.prepare('UPDATE activity_sessions SET starts_at = ?2 WHERE id = ?1').bind(source.sessionId, startsAt).run();
    await setStart(Date.now() + 47 * HOUR);
    try {
      const view = (await changes(buyer)).body.data;
      expect(view.refusal).toBe('attendee_change_closed');
      expect(view.attendees.every((attendee) => !attendee.changeable)).toBe(true);
      const late = await ask(buyer, { orderAttendeeId: second, ...visitor('Abe Sora', 'TR3333333') });
      expect(late.status).toBe(409);
      expect(late.body).toMatchObject({ errorCode: 'attendee_change_closed' });
      expect(late.body.message).toContain('48 hours');
      expect((await decide(seller, request.id, 'approve')).body.errorCode).toBe('attendee_change_closed');
      expect((await withdraw(buyer, request.id)).body.data.status).toBe('withdrawn');
    } finally {
      await setStart(source.startsAt);
    }
  });

  it('racing a scan of the old code at the gate: either the scan admits and the approval is refused, or the old code is refused', async () => {
    const [, second] = await attendeeIds();
    const [, oldCode] = await entryScans();
    const request = (await ask(buyer, { orderAttendeeId: second, ...visitor('Abe Sora', 'TR3333333') })).body.data;
    const [approval, ...scans] = await Promise.all([decide(seller, request.id, 'approve'), admit(oldCode), admit(oldCode), admit(oldCode)]);
    const admittedOld = scans.filter((scan) => scan.status === 200);
    expect(admittedOld.length).toBeLessThanOrEqual(1);
    if (approval.status === 200) {
      expect(admittedOld).toHaveLength(0);
      expect(scans.every((scan) => scan.body.errorCode === 'entry_code_expired')).toBe(true);
      const [, newCode] = await entryScans();
      expect((await admit(newCode)).status).toBe(200);
    } else {
      expect(approval.body.errorCode).toBe('attendee_change_ticket_unavailable');
      expect(admittedOld).toHaveLength(1);
      expect((await changes(buyer)).body.data.attendees[1].name).toBe('Suzuki Ken');
    }
    // Whatever won, the old code never admits again.
    expect((await admit(oldCode)).status).not.toBe(200);
  });

  it('is refused once the ticket was admitted with the old code: the request stays waiting and the attendee as it was', async () => {
    const single = await ticketedRealNameOrder([['Kato Ren', 'TR4444444']]);
    const [attendee] = (await changes(buyer, single.id)).body.data.attendees;
    const [oldCode] = await entryScans(single.id);
    const request = (await ask(buyer, { orderAttendeeId: attendee.id, ...visitor('Abe Sora', 'TR3333333') }, 'en', single.id)).body.data;
    expect((await admit(oldCode)).status).toBe(200);
    const approval = await decide(seller, request.id, 'approve');
    expect(approval.status).toBe(409);
    expect(approval.body.errorCode).toBe('attendee_change_ticket_unavailable');
    const after = (await changes(buyer, single.id)).body.data;
    expect(after.attendees[0]).toMatchObject({ name: 'Kato Ren', pending: { id: request.id, status: 'pending' } });
    // The seller can still close it by refusing.
    expect((await decide(seller, request.id, 'refuse')).body.data.status).toBe('refused');
  });
});
