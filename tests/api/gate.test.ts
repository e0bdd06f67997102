import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_CODE_STEP_SECONDS } from '../../src/lib/config/gate.ts';
import { ATTENDEE_CHANGE_CUTOFF_MS } from '../../src/lib/config/orders.ts';
import type { DoorTicket } from '../../src/lib/domain/admission.ts';
import { currentEntryCode, entryPayload } from '../../src/lib/domain/entry-code.ts';
import type { Admission, GateSession } from '../../src/lib/services/gate/admission.ts';
import type { DoorSync, OfflineOutcome } from '../../src/lib/services/gate/offline-door.ts';
import type { OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import type { TransferListingView } from '../../src/lib/services/marketplace/transfer-views.ts';
import type { VoucherTicket } from '../../src/lib/services/orders/vouchers.ts';
import { sellerClient, signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { eTicketSource, pay, placeOrder, voucherOf, type ETicketSource } from './shop.ts';

let source: ETicketSource;
let seller: TestClient;
let holder: TestClient;
let buyer: TestClient;

const STEP_MS = ENTRY_CODE_STEP_SECONDS * 1000;

/** What a voucher's QR code carries for a ticket at `at` (now by default): its number and the code of that moment. */
async function scanOf(ticket: VoucherTicket, at = Date.now()): Promise<string> {
  return entryPayload(ticket.ticketNo, await currentEntryCode(ticket.entrySecret!, at));
}

/** The tickets of an order the client holds (bought from the seed seller, paid and ticketed), in ticket order. */
async function heldTickets(client: TestClient, quantity: number): Promise<{ order: OrderDetail; tickets: VoucherTicket[] }> {
  const placed = await placeOrder(client, source.listingId, quantity);
  expect(placed.status, placed.text).toBe(200);
  const order = placed.body.data as OrderDetail;
  await pay(client, order.id);
  expect((await seller.post(`/api/v1/seller/orders/${order.id}/fulfil`, { method: 'e_ticket' })).status).toBe(200);
  const { tickets } = await voucherOf(client, order.id);
  expect(tickets.every((ticket) => ticket.entrySecret)).toBe(true);
  return { order, tickets };
}

/** The scans of an order's tickets now, in ticket order. */
async function heldCodes(client: TestClient, quantity: number): Promise<{ order: OrderDetail; codes: string[]; tickets: VoucherTicket[] }> {
  const held = await heldTickets(client, quantity);
  return { ...held, codes: await Promise.all(held.tickets.map((ticket) => scanOf(ticket))) };
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
    expect((await admit(new TestClient(), '20261101000-01 123456')).status).toBe(401);
    const refused = await admit(holder, '20261101000-01 123456');
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
  it('admits a ticket once, by its number and current code in any spacing, and says when it was admitted', async () => {
    const {
      codes: [code, other],
    } = await heldCodes(holder, 2);
    const first = await admit(seller, ` ${code.replace(' ', ' / ')} `);
    expect(first.status, first.text).toBe(200);
    expect(first.body.data).toMatchObject({ seat: null });
    expect(first.body.data.ticketNo).toMatch(/-01$/);

    const again = await admit(seller, code, source.sessionId, 'zh-HK');
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('ticket_already_used');
    expect(again.body.message).toContain(`門票 ${first.body.data.ticketNo} 已於`);

    // Eight scanners reading the other ticket at once let one person in, and record one admission.
    const racing = await Promise.all(Array.from({ length: 8 }, () => admit(seller, other)));
    expect(racing.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(racing.filter((answer) => answer.body.errorCode === 'ticket_already_used')).toHaveLength(7);
    const recorded = await env.DB.prepare(
      'SELECT count(*) AS n, min(a.method) AS method, min(a.staff_id) AS staffId FROM admissions a JOIN tickets t ON t.id = a.ticket_id WHERE t.ticket_no = ?',
    )
      .bind(other.split(' ')[0])
      .first<{ n: number; method: string; staffId: number }>();
    expect(recorded).toEqual({ n: 1, method: 'code', staffId: source.sellerId });

    const count = await seller.call<{ admitted: number; issued: number }>(`/api/v1/gate/sessions/${source.sessionId}/count`);
    expect(count.body.data.admitted).toBeGreaterThanOrEqual(2);
    expect(count.body.data.issued).toBeGreaterThanOrEqual(count.body.data.admitted);
  });

  it('refuses a scan that cannot be one (a ticket number alone is for the ID check), and a ticket no one has, naming the field', async () => {
    expect((await admit(seller, 'not a code')).body).toMatchObject({ errorCode: 'entry_code_invalid', field: 'code' });
    expect((await admit(seller, '20261101000-01')).body).toMatchObject({ errorCode: 'entry_code_invalid', field: 'code' });
    expect((await admit(seller, 'x'.repeat(65))).body).toMatchObject({ errorCode: 'invalid_input' });
    const unknown = await admit(seller, '19990101000-01 123456');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ errorCode: 'ticket_not_found', field: 'code' });
  });

  it('refuses a code replayed after the skew window (a screenshot), and admits the current one', async () => {
    const {
      tickets: [ticket],
    } = await heldTickets(holder, 1);
    // A screenshot taken two steps (30 s) ago, and one from an hour ago: both outside the window of one step.
    for (const age of [2 * STEP_MS, 3600_000]) {
      const replayed = await admit(seller, await scanOf(ticket, Date.now() - age), source.sessionId, 'zh-HK');
      expect(replayed.status, replayed.text).toBe(409);
      expect(replayed.body.errorCode).toBe('entry_code_expired');
      expect(replayed.body.message).toContain(`門票 ${ticket.ticketNo}：此入場碼已過期`);
    }
    // Another ticket's code under this ticket's number is no better.
    const {
      tickets: [other],
    } = await heldTickets(holder, 1);
    const borrowed = entryPayload(ticket.ticketNo, (await scanOf(other)).split(' ')[1]);
    expect((await admit(seller, borrowed)).body.errorCode).toBe('entry_code_expired');
    // The code of the step before still admits: the holder's phone may lag, or the code changed on the way to the scanner.
    expect((await admit(seller, await scanOf(ticket, Date.now() - STEP_MS))).status).toBe(200);
  });

  it("refuses a resold ticket and admits the new holder's", async () => {
    const {
      order,
      codes: [sold],
      tickets: [soldTicket],
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

    // The old holder's code, computed now from the secret their voucher gave them, stops admitting at once;
    // their voucher no longer carries a secret, and the new holder's ticket has a secret of its own.
    const { tickets: oldTickets } = await voucherOf(holder, order.id);
    expect(oldTickets[0].entrySecret).toBeNull();
    expect(reissued.entrySecret).not.toBe(soldTicket.entrySecret);
    const refused = await admit(seller, await scanOf(soldTicket));
    expect(refused.status).toBe(409);
    expect(refused.body.errorCode).toBe('ticket_transferred');
    expect((await admit(seller, sold)).body.errorCode).toBe('ticket_transferred');
    expect((await admit(seller, await scanOf(reissued))).status).toBe(200);
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
    const refused = await admit(seller, await scanOf(rivalTicket));
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      errorCode: 'ticket_other_seller',
      message: `Ticket ${rivalTicket.ticketNo} was sold by another seller: its holder enters through that seller's door.`,
    });
    expect((await admit(rival, await scanOf(rivalTicket))).status).toBe(200);
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
    expect((await admit(staff, '20261101000-01 123456')).body.errorCode).toBe('not_gate_staff');

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

describe('a door device: syncing the secrets, the photo-ID check, admissions made without signal', () => {
  const syncOf = (client: TestClient, sessionId = source.sessionId) => client.call<DoorSync>(`/api/v1/gate/sessions/${sessionId}/sync`);
  const upload = (
    client: TestClient,
    admissions: { ticketNo: string; admittedAt: number; method: 'code' | 'id_check' }[],
    language = 'en',
  ) =>
    client.call<OfflineOutcome[]>(`/api/v1/gate/sessions/${source.sessionId}/offline-admissions`, {
      method: 'POST',
      body: { admissions },
      headers: { language },
    });

  it('gives the secrets only to the door staff of the session, and only its own seller’s tickets of that session', async () => {
    expect((await syncOf(new TestClient())).status).toBe(401);
    const stranger = await syncOf(holder);
    expect(stranger.status).toBe(403);
    expect(stranger.body.errorCode).toBe('not_gate_staff');

    const {
      tickets: [mine],
    } = await heldTickets(holder, 1);
    // A rival seller's ticket on the same session.
    const rival = await signedInClient('sync-rival');
    const rivalId = Number(rival.cookies.get('pnid'));
    const listing = await env.DB.prepare(
      `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, created_at)
       SELECT tier_id, ?2, price, currency, 5, 5, 'together', 'e_ticket', 'active', ?3 FROM listings WHERE id = ?1 RETURNING id`,
    )
      .bind(source.listingId, rivalId, Date.now())
      .first<{ id: number }>();
    const placed = await placeOrder(buyer, listing!.id, 1);
    expect(placed.status, placed.text).toBe(200);
    await pay(buyer, (placed.body.data as OrderDetail).id);
    expect((await rival.post(`/api/v1/seller/orders/${(placed.body.data as OrderDetail).id}/fulfil`, { method: 'e_ticket' })).status).toBe(
      200,
    );
    const [rivalTicket] = (await voucherOf(buyer, (placed.body.data as OrderDetail).id)).tickets;

    const synced = await syncOf(seller);
    expect(synced.status, synced.text).toBe(200);
    expect(synced.headers.get('cache-control')).toBe('no-store');
    const byNumber = new Map(synced.body.data.tickets.map((ticket) => [ticket.ticketNo, ticket]));
    expect(byNumber.get(mine.ticketNo)).toMatchObject({ secret: mine.entrySecret, status: 'valid', attendee: null, admittedAt: null });
    expect(byNumber.has(rivalTicket.ticketNo)).toBe(false);
    // Every synced ticket is of this session; a used one is there without its secret.
    const sessions = await env.DB.prepare(
      `SELECT DISTINCT o.session_id AS sessionId FROM tickets t JOIN orders o ON o.id = t.order_id WHERE t.ticket_no IN (SELECT value FROM json_each(?))`,
    )
      .bind(JSON.stringify([...byNumber.keys()]))
      .all<{ sessionId: number }>();
    expect(sessions.results).toEqual([{ sessionId: source.sessionId }]);
    const used = synced.body.data.tickets.find((ticket) => ticket.status === 'used')!;
    expect(used).toMatchObject({ secret: null, admittedAt: expect.any(Number) });
    expect(Math.abs(synced.body.data.syncedAt - Date.now())).toBeLessThan(60_000);
    // When attendee changes close: before it, the door admits real-name tickets offline only after another sync.
    const session = await env.DB.prepare('SELECT starts_at AS startsAt FROM activity_sessions WHERE id = ?')
      .bind(source.sessionId)
      .first<{ startsAt: number }>();
    expect(synced.body.data.namesFinalAt).toBe(session!.startsAt - ATTENDEE_CHANGE_CUTOFF_MS);

    // The rival's door gets the rival's ticket alone.
    const rivalSync = await syncOf(rival);
    expect(rivalSync.body.data.tickets.map((ticket) => ticket.ticketNo)).toEqual([rivalTicket.ticketNo]);
  });

  it("shows a real-name ticket's attendee for the photo-ID check, and admits it once, recording who and how", async () => {
    const {
      order,
      tickets: [first, second],
    } = await heldTickets(holder, 2);
    await env.DB.batch(
      ['Chan Tai Man', 'Wong Siu Ming'].map((name, index) =>
        env.DB.prepare(
          `INSERT INTO order_attendees (order_id, name, nationality, id_card_type, id_card_no) VALUES (?, ?, 'HK', 'id_card', ?)`,
        ).bind(order.id, name, `A12345${index}(7)`),
      ),
    );
    const lookup = await seller.call<DoorTicket>(`/api/v1/gate/sessions/${source.sessionId}/tickets/${second.ticketNo}`);
    expect(lookup.status, lookup.text).toBe(200);
    expect(lookup.body.data).toMatchObject({
      ticketNo: second.ticketNo,
      secret: null,
      status: 'valid',
      attendee: { name: 'Wong Siu Ming', idType: 'id_card', idEnding: '1(7)' },
    });
    expect((await holder.call(`/api/v1/gate/sessions/${source.sessionId}/tickets/${second.ticketNo}`)).status).toBe(403);
    expect((await seller.call(`/api/v1/gate/sessions/${source.sessionId}/tickets/19990101000-01`)).body.errorCode).toBe('ticket_not_found');

    const idCheck = (client: TestClient) =>
      client.call<Admission>(`/api/v1/gate/sessions/${source.sessionId}/id-checked-admissions`, {
        method: 'POST',
        body: { ticketNo: second.ticketNo },
      });
    expect((await idCheck(holder)).status).toBe(403);
    const admitted = await idCheck(seller);
    expect(admitted.status, admitted.text).toBe(200);
    expect((await idCheck(seller)).body.errorCode).toBe('ticket_already_used');
    expect((await seller.call(`/api/v1/gate/sessions/${source.sessionId}/tickets/${second.ticketNo}`)).body.errorCode).toBe(
      'ticket_already_used',
    );
    // Its QR code no longer admits either; the first ticket's attendee is the first.
    expect((await admit(seller, await scanOf(second))).body.errorCode).toBe('ticket_already_used');
    expect(
      (await seller.call<DoorTicket>(`/api/v1/gate/sessions/${source.sessionId}/tickets/${first.ticketNo}`)).body.data.attendee?.name,
    ).toBe('Chan Tai Man');
    const audit = await env.DB.prepare(
      'SELECT a.staff_id AS staffId, a.method, a.offline, a.admitted_at AS admittedAt FROM admissions a JOIN tickets t ON t.id = a.ticket_id WHERE t.ticket_no = ?',
    )
      .bind(second.ticketNo)
      .all();
    expect(audit.results).toEqual([
      { staffId: source.sellerId, method: 'id_check', offline: 0, admittedAt: admitted.body.data.admittedAt },
    ]);
  });

  it('records admissions made without signal; the server decides, one admission per ticket', async () => {
    const {
      tickets: [offlineOnly, contested],
    } = await heldTickets(holder, 2);
    // Another door admitted the contested ticket online while this device had no signal.
    expect((await admit(seller, await scanOf(contested))).status).toBe(200);
    const admittedAt = Date.now() - 5 * 60_000;
    const uploaded = await upload(
      seller,
      [
        { ticketNo: offlineOnly.ticketNo, admittedAt, method: 'code' },
        { ticketNo: contested.ticketNo, admittedAt, method: 'code' },
        { ticketNo: '19990101000-01', admittedAt, method: 'id_check' },
      ],
      'zh-HK',
    );
    expect(uploaded.status, uploaded.text).toBe(200);
    expect(uploaded.body.data).toEqual([
      { ticketNo: offlineOnly.ticketNo, admitted: true },
      {
        ticketNo: contested.ticketNo,
        admitted: false,
        errorCode: 'ticket_already_used',
        message: expect.stringContaining(`門票 ${contested.ticketNo} 已於`),
      },
      { ticketNo: '19990101000-01', admitted: false, errorCode: 'ticket_not_found', message: expect.any(String) },
    ]);
    const recorded = await env.DB.prepare(
      'SELECT a.offline, a.admitted_at AS admittedAt, t.status FROM admissions a JOIN tickets t ON t.id = a.ticket_id WHERE t.ticket_no = ?',
    )
      .bind(offlineOnly.ticketNo)
      .first();
    expect(recorded).toEqual({ offline: 1, admittedAt, status: 'used' });
    // The same upload again (a retry after a lost answer) is answered as before and admits no one twice;
    // the same ticket from another time or another door is a conflict.
    const again = await upload(seller, [{ ticketNo: offlineOnly.ticketNo, admittedAt, method: 'code' }]);
    expect(again.body.data).toEqual([{ ticketNo: offlineOnly.ticketNo, admitted: true }]);
    const rows = await env.DB.prepare('SELECT count(*) AS n FROM admissions a JOIN tickets t ON t.id = a.ticket_id WHERE t.ticket_no = ?')
      .bind(offlineOnly.ticketNo)
      .first<{ n: number }>();
    expect(rows!.n).toBe(1);
    const later = await upload(seller, [{ ticketNo: offlineOnly.ticketNo, admittedAt: admittedAt + 1000, method: 'code' }]);
    expect(later.body.data).toEqual([expect.objectContaining({ admitted: false, errorCode: 'ticket_already_used' })]);
    // A device's clock ahead of the server's never dates an admission in the future.
    const {
      tickets: [ahead],
    } = await heldTickets(holder, 1);
    await upload(seller, [{ ticketNo: ahead.ticketNo, admittedAt: Date.now() + 3600_000, method: 'code' }]);
    const dated = await env.DB.prepare(
      'SELECT a.admitted_at AS admittedAt FROM admissions a JOIN tickets t ON t.id = a.ticket_id WHERE t.ticket_no = ?',
    )
      .bind(ahead.ticketNo)
      .first<{ admittedAt: number }>();
    expect(dated!.admittedAt).toBeLessThanOrEqual(Date.now());

    expect((await upload(holder, [{ ticketNo: ahead.ticketNo, admittedAt, method: 'code' }])).status).toBe(403);
    expect((await upload(seller, [])).body.errorCode).toBe('invalid_input');
  });
});
