import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Admission, GateSession } from '../../src/lib/services/admission.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import type { TransferListingView } from '../../src/lib/services/transfers.ts';
import { sellerClient, signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { eTicketSource, pay, placeOrder, voucherOf, type ETicketSource } from './shop.ts';

let source: ETicketSource;
let seller: TestClient;
let holder: TestClient;
let buyer: TestClient;

/** Entry codes of an order the client holds (bought from the seed seller, paid and ticketed), in ticket order. */
async function heldCodes(client: TestClient, quantity: number): Promise<{ order: OrderDetail; codes: string[] }> {
  const placed = await placeOrder(client, source.listingId, quantity);
  expect(placed.status, placed.text).toBe(200);
  const order = placed.body.data as OrderDetail;
  await pay(client, order.id);
  expect((await seller.post(`/api/v1/seller/orders/${order.id}/fulfil`, { method: 'e_ticket' })).status).toBe(200);
  return { order, codes: (await voucherOf(client, order.id)).tickets.map((ticket) => ticket.entryCode!) };
}

const admit = (client: TestClient, code: string, sessionId = source.sessionId, language = 'en') =>
  client.call<Admission>(`/api/v1/gate/sessions/${sessionId}/admissions`, { method: 'POST', body: { code }, headers: { language } });

beforeAll(async () => {
  await seed();
  source = await eTicketSource('last');
  seller = await sellerClient(source.sellerId);
  holder = await signedInClient('gate-holder');
  buyer = await signedInClient('gate-buyer');
});

describe('who staffs the gate', () => {
  it('needs a session, and is a seller of the session: a ticket holder is not', async () => {
    expect((await admit(new TestClient(), '0000-0000-0000-0000')).status).toBe(401);
    const refused = await admit(holder, '0000-0000-0000-0000');
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe('not_gate_staff');
    expect((await holder.call<GateSession[]>('/api/v1/gate/sessions')).body.data).toEqual([]);
  });

  it("lists the seller's sessions not yet ended, soonest first", async () => {
    const sessions = (await seller.call<GateSession[]>('/api/v1/gate/sessions')).body.data;
    expect(sessions.map((session) => session.id)).toContain(source.sessionId);
    const starts = sessions.map((session) => session.startsAt);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(sessions.every((session) => session.activity.name && session.label)).toBe(true);
  });
});

describe('admitting', () => {
  it('admits a ticket once, in any typing of its code, and says when it was admitted', async () => {
    const {
      codes: [code, other],
    } = await heldCodes(holder, 2);
    const first = await admit(seller, code.toLowerCase().replace(/-/g, ' '));
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ seat: null });
    expect(first.body.data.ticketNo).toMatch(/-01$/);

    const again = await admit(seller, code, source.sessionId, 'zh-HK');
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('ticket_already_used');
    expect(again.body.message).toContain(`門票 ${first.body.data.ticketNo} 已於`);

    // Two scanners reading the other ticket at once let one person in.
    const racing = await Promise.all(Array.from({ length: 5 }, () => admit(seller, other)));
    expect(racing.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(racing.filter((answer) => answer.body.errorCode === 'ticket_already_used')).toHaveLength(4);

    const count = await seller.call<{ admitted: number; issued: number }>(`/api/v1/gate/sessions/${source.sessionId}/count`);
    expect(count.body.data.admitted).toBeGreaterThanOrEqual(2);
    expect(count.body.data.issued).toBeGreaterThanOrEqual(count.body.data.admitted);
  });

  it('refuses a code that cannot be one, and one no ticket has, naming the field', async () => {
    expect((await admit(seller, 'not a code')).body).toMatchObject({ errorCode: 'entry_code_invalid', field: 'code' });
    expect((await admit(seller, 'x'.repeat(65))).body).toMatchObject({ errorCode: 'invalid_input' });
    const unknown = await admit(seller, 'ZZZZ-ZZZZ-ZZZZ-ZZZY');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorCode: 'ticket_not_found', field: 'code' });
  });

  it("refuses a resold ticket and admits the new holder's", async () => {
    const {
      order,
      codes: [sold],
    } = await heldCodes(holder, 1);
    const listed = await holder.call<TransferListingView>(`/api/v1/orders/${order.id}/transfer-listings`, {
      method: 'POST',
      body: { quantity: 1, price: source.faceValue, currency: source.currency, acceptAgreement: true },
    });
    expect(listed.status, listed.text).toBe(200);
    const bought = await placeOrder(buyer, listed.body.data.id, 1);
    expect(bought.status, bought.text).toBe(200);
    await pay(buyer, (bought.body.data as OrderDetail).id);
    const [reissued] = (await voucherOf(buyer, (bought.body.data as OrderDetail).id)).tickets;

    const refused = await admit(seller, sold);
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('ticket_transferred');
    expect((await admit(seller, reissued.entryCode!)).status).toBe(200);
  });

  it("refuses a refunded order's ticket, and a ticket of another session", async () => {
    const {
      order,
      codes: [refunded],
    } = await heldCodes(holder, 1);
    expect((await seller.post(`/api/v1/seller/orders/${order.id}/fail`, { reason: 'The venue cancelled this block' })).status).toBe(200);
    expect((await admit(seller, refunded)).body.errorCode).toBe('ticket_void');

    // The seller also sells for another session, and scans this session's ticket at that gate.
    const other = await env.DB.prepare(
      'SELECT t.id AS tierId, t.session_id AS sessionId FROM ticket_tiers t WHERE t.session_id <> ? LIMIT 1',
    )
      .bind(source.sessionId)
      .first<{ tierId: number; sessionId: number }>();
    await env.DB.prepare(
      `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, created_at)
       VALUES (?1, ?2, 10000, 'HKD', 1, 1, 'together', 'e_ticket', 'active', ?3)`,
    )
      .bind(other!.tierId, source.sellerId, Date.now())
      .run();
    const {
      codes: [elsewhere],
    } = await heldCodes(holder, 1);
    const wrongGate = await admit(seller, elsewhere, other!.sessionId);
    expect(wrongGate.status).toBe(409);
    expect(wrongGate.body.errorCode).toBe('ticket_other_session');
    expect((await admit(seller, elsewhere)).status).toBe(200);
  });
});

describe("each seller's door, and the door staff a seller assigns", () => {
  const userIdOf = (client: TestClient) => Number(client.cookies.get('pnid'));
  const emailOf = async (client: TestClient) =>
    (await env.DB.prepare('SELECT email FROM users WHERE id = ?').bind(userIdOf(client)).first<{ email: string }>())!.email;
  const staffPath = () => `/api/v1/gate/sessions/${source.sessionId}/staff`;

  it('admits only the tickets its own seller issued, and counts only those', async () => {
    // A second seller with tickets of their own on the same session.
    const rival = await signedInClient('gate-rival');
    const tier = await env.DB.prepare('SELECT tier_id AS tierId FROM listings WHERE id = ?')
      .bind(source.listingId)
      .first<{ tierId: number }>();
    const inserted = await env.DB.prepare(
      `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, created_at)
       VALUES (?1, ?2, ?3, ?4, 10, 10, 'together', 'e_ticket', 'active', ?5) RETURNING id`,
    )
      .bind(tier!.tierId, userIdOf(rival), source.faceValue, source.currency, Date.now())
      .first<{ id: number }>();
    const placed = await placeOrder(holder, inserted!.id, 1);
    expect(placed.status, placed.text).toBe(200);
    const order = placed.body.data as OrderDetail;
    await pay(holder, order.id);
    expect((await rival.post(`/api/v1/seller/orders/${order.id}/fulfil`, { method: 'e_ticket' })).status).toBe(200);
    const [rivalTicket] = (await voucherOf(holder, order.id)).tickets;

    const before = (await seller.call<{ admitted: number; issued: number }>(`/api/v1/gate/sessions/${source.sessionId}/count`)).body.data;
    const refused = await admit(seller, rivalTicket.entryCode!);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      errorCode: 'ticket_other_seller',
      message: `Ticket ${rivalTicket.ticketNo} was sold by another seller: its holder enters through that seller's door.`,
    });
    expect((await admit(rival, rivalTicket.entryCode!)).status).toBe(200);
    // The rival's ticket is in neither count of the first seller's door, and was not used up by it.
    expect((await seller.call<{ admitted: number; issued: number }>(`/api/v1/gate/sessions/${source.sessionId}/count`)).body.data).toEqual(
      before,
    );
    expect((await rival.call<{ admitted: number; issued: number }>(`/api/v1/gate/sessions/${source.sessionId}/count`)).body.data).toEqual({
      admitted: 1,
      issued: 1,
    });
  });

  it("lets a seller assign door staff by email or phone, who then admit that seller's tickets only, until removed", async () => {
    const staff = await signedInClient('gate-staff');
    expect((await admit(staff, '0000-0000-0000-0000')).body.errorCode).toBe('not_gate_staff');

    const assigned = await seller.post<{ userId: number; account: string }[]>(staffPath(), {
      account: ` ${(await emailOf(staff)).toUpperCase()} `,
    });
    expect(assigned.status, assigned.text).toBe(200);
    expect(assigned.body.data).toEqual([expect.objectContaining({ userId: userIdOf(staff), account: await emailOf(staff) })]);
    // Assigning again changes nothing.
    expect((await seller.post<unknown[]>(staffPath(), { account: await emailOf(staff) })).body.data).toHaveLength(1);
    expect((await staff.call<GateSession[]>('/api/v1/gate/sessions')).body.data.map((session) => session.id)).toContain(source.sessionId);

    const {
      codes: [code],
    } = await heldCodes(holder, 1);
    const admitted = await admit(staff, code);
    expect(admitted.status, admitted.text).toBe(200);
    // Staff cannot assign staff themselves.
    expect((await staff.post(staffPath(), { account: await emailOf(holder) })).status).toBe(403);

    const removed = await seller.call<unknown[]>(`${staffPath()}/${userIdOf(staff)}`, { method: 'DELETE' });
    expect(removed.body.data).toEqual([]);
    const {
      codes: [later],
    } = await heldCodes(holder, 1);
    expect((await admit(staff, later)).body.errorCode).toBe('not_gate_staff');
  });

  it('refuses a malformed or unknown account, the seller themselves, and anyone who does not sell at the session', async () => {
    const malformed = await seller.post(staffPath(), { account: 'someone' });
    expect(malformed.body).toMatchObject({ code: 400, errorCode: 'staff_account_invalid', field: 'account' });
    const unknown = await seller.call(staffPath(), { method: 'POST', body: { account: '+852 99998888' }, headers: { language: 'zh-HK' } });
    expect(unknown.body).toMatchObject({
      code: 404,
      errorCode: 'staff_account_not_found',
      field: 'account',
      message: '沒有帳戶使用此電郵或電話號碼：請先讓驗票員註冊。',
    });
    const self = await env.DB.prepare('SELECT email, phone_country_code AS code, phone FROM users WHERE id = ?')
      .bind(source.sellerId)
      .first<{ email: string | null; code: string; phone: string }>();
    expect((await seller.post(staffPath(), { account: self!.email ?? `${self!.code} ${self!.phone}` })).body.errorCode).toBe(
      'staff_is_seller',
    );
    expect((await holder.call(staffPath())).status).toBe(403);
    expect((await holder.post(staffPath(), { account: await emailOf(buyer) })).body.errorCode).toBe('not_gate_staff');
  });
});
