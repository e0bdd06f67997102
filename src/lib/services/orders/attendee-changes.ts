/**
 * Changing a real-name attendee after ordering. The buyer asks to change one attendee
 * of a paid real-name order before the cut-off (domain/attendee-change.ts), the new attendee checked
 * like one added to the profile; the seller who issued the tickets, or an operator, approves or
 * refuses; the buyer may withdraw while it waits. Approving changes the order's attendee and
 * reissues the ticket's entry code, so the old voucher stops admitting.
 *
 * Every request stays as the audit of who asked to change whom, who decided, when and how. It is
 * visible to the buyer, the issuing seller and operators only; to anyone else it does not exist.
 *
 * Races: one waiting request per attendee (a partial unique index); a decision is one guarded
 * update from pending, so it happens once; approval needs the ticket still valid with the entry
 * nonce read, and admission is guarded on the nonce its code was checked against
 * (services/gate/admission.ts), so an approved change and a scan of the old code never both succeed.
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { ATTENDEE_CHANGE_CUTOFF_MS } from '../../config/orders.ts';
import type { Db } from '../../data/client.ts';
import { attendeeChangeRequests, orderAttendees, orders, tickets } from '../../db/schema.ts';
import {
  attendeeChangeDeadline,
  attendeeChangeRefusal,
  ticketChangeable,
  type AttendeeChangeRefusal,
} from '../../domain/attendee-change.ts';
import { isCountryCode } from '../../domain/countries.ts';
import { DomainError } from '../../domain/errors.ts';
import { attendeeProblem, idCardTypeFor, maskIdNumber, normalizeIdNumber, type IdCardType } from '../../domain/identity.ts';
import { formatSessionTime } from '../../domain/session-time.ts';
import { translator } from '../../i18n/index.ts';
import { localizedName } from '../../i18n/locales.ts';
import { issuerOf, issuersOf } from '../gate/admission.ts';
import type { ServiceEnv } from '../platform/env.ts';
import type { UserScope } from '../platform/scope.ts';
import { sign } from '../platform/secrets.ts';
import { orderWithShowQuery, type OrderWithShowRow } from '../catalogue/show-query.ts';
import { newEntryNonce } from '../gate/entry-secrets.ts';
import { batch } from '../../data/batch.ts';
import { allows } from '../../domain/staff.ts';
import { staffRolesOf } from '../staff/roles.ts';

type RequestRow = typeof attendeeChangeRequests.$inferSelect;
type TicketRow = typeof tickets.$inferSelect;
export type AttendeeChangeStatus = RequestRow['status'];

/** An attendee as a request shows them: the ID number masked. */
export interface AttendeeChangePerson {
  name: string;
  nationality: string;
  idCardType: IdCardType;
  idCardNoMasked: string;
}

export interface AttendeeChangeView {
  id: number;
  orderId: number;
  orderNo: string;
  /** The ticket the attendee holds; null while the order is not yet ticketed. */
  ticketNo: string | null;
  activity: string;
  session: string;
  from: AttendeeChangePerson;
  to: AttendeeChangePerson;
  status: AttendeeChangeStatus;
  createdAt: number;
  decidedAt: number | null;
}

export interface OrderAttendeeChoice extends AttendeeChangePerson {
  id: number;
  ticketNo: string | null;
  /** Whether a change may be asked for now: the order allows it, the ticket still admits, none waits. */
  changeable: boolean;
  pending: AttendeeChangeView | null;
}

/** What the order page shows and offers about changing its attendees. */
export interface OrderAttendeeChanges {
  /** Why no attendee can be changed now, or null. */
  refusal: AttendeeChangeRefusal | null;
  /** The cut-off: changes are asked for and approved before it. */
  deadline: number;
  venueCountry: string;
  attendees: OrderAttendeeChoice[];
  /** Every request of the order, newest first. */
  requests: AttendeeChangeView[];
}

export interface AttendeeChangeInput {
  orderAttendeeId: number;
  name: string;
  nationality: string;
  idCardType: string;
  idCardNo: string;
}

/** An ID number kept for the audit: a keyed hash (two requests for one person match), never the number. */
function idHash(env: ServiceEnv, nationality: string, type: string, number: string): Promise<string> {
  return sign(env, 'attendee-id', `${nationality}:${type}:${number}`);
}

/** Staff who decide any request, whoever issued the ticket. */
async function decidesAll(db: Db, userId: number): Promise<boolean> {
  return allows(await staffRolesOf(db, userId), 'attendee_changes');
}

const HOUR_MS = 3600 * 1000;

/** The refusal as an error: the closed one names the cut-off in hours. */
function refusalError(refusal: AttendeeChangeRefusal): DomainError {
  return new DomainError(refusal, { hours: ATTENDEE_CHANGE_CUTOFF_MS / HOUR_MS });
}

function refusalOf(row: OrderWithShowRow, now: number): AttendeeChangeRefusal | null {
  return attendeeChangeRefusal(
    { realName: row.activity.realNameRequired, status: row.order.status, sessionStartsAt: row.session.startsAt },
    now,
  );
}

/** The order's attendees and tickets in order: the n-th attendee holds the n-th ticket. */
async function attendeesWithTickets(db: Db, orderId: number) {
  const [attendeeRows, ticketRows] = await Promise.all([
    db.select().from(orderAttendees).where(eq(orderAttendees.orderId, orderId)).orderBy(asc(orderAttendees.id)),
    db.select().from(tickets).where(eq(tickets.orderId, orderId)).orderBy(asc(tickets.id)),
  ]);
  return attendeeRows.map((attendee, index) => ({ attendee, ticket: (ticketRows[index] as TicketRow | undefined) ?? null }));
}

async function viewsOf(scope: UserScope, rows: RequestRow[]): Promise<AttendeeChangeView[]> {
  if (rows.length === 0) return [];
  const { db, ctx } = scope;
  const orderIds = [...new Set(rows.map((row) => row.orderId))];
  const ticketIds = rows.flatMap((row) => (row.ticketId === null ? [] : [row.ticketId]));
  const [shows, ticketRows] = await Promise.all([
    orderWithShowQuery(db).where(inArray(orders.id, orderIds)),
    ticketIds.length === 0
      ? []
      : db.select({ id: tickets.id, ticketNo: tickets.ticketNo }).from(tickets).where(inArray(tickets.id, ticketIds)),
  ]);
  const showOf = new Map(shows.map((show) => [show.order.id, show]));
  const ticketNoOf = new Map(ticketRows.map((ticket) => [ticket.id, ticket.ticketNo]));
  return rows.map((row) => {
    const show = showOf.get(row.orderId)!;
    return {
      id: row.id,
      orderId: row.orderId,
      orderNo: show.order.orderNo,
      ticketNo: row.ticketId === null ? null : (ticketNoOf.get(row.ticketId) ?? null),
      activity: localizedName(show.activity, ctx.locale),
      session: formatSessionTime(show.session.startsAt, ctx.locale, show.city.timeZone),
      from: { name: row.oldName, nationality: row.oldNationality, idCardType: row.oldIdCardType, idCardNoMasked: row.oldIdMasked },
      to: { name: row.newName, nationality: row.newNationality, idCardType: row.newIdCardType, idCardNoMasked: row.newIdMasked },
      status: row.status,
      createdAt: row.createdAt,
      decidedAt: row.decidedAt,
    };
  });
}

/** The buyer's order with its show; someone else's is answered like a missing one. */
async function ownOrder(scope: UserScope, orderId: number): Promise<OrderWithShowRow> {
  const [row] = await orderWithShowQuery(scope.db).where(and(eq(orders.id, orderId), eq(orders.userId, scope.userId)));
  if (!row) throw new DomainError('order_not_found');
  return row;
}

/** The order page's view of its attendee changes (the buyer's own order only). */
export async function orderAttendeeChanges(scope: UserScope, orderId: number): Promise<OrderAttendeeChanges> {
  const { db, now } = scope;
  const row = await ownOrder(scope, orderId);
  const [pairs, requestRows] = await Promise.all([
    attendeesWithTickets(db, orderId),
    db.select().from(attendeeChangeRequests).where(eq(attendeeChangeRequests.orderId, orderId)).orderBy(desc(attendeeChangeRequests.id)),
  ]);
  const requests = await viewsOf(scope, requestRows);
  const refusal = refusalOf(row, now);
  return {
    refusal,
    deadline: attendeeChangeDeadline(row.session.startsAt),
    venueCountry: row.countryCode,
    attendees: pairs.map(({ attendee, ticket }) => {
      const waiting = requestRows.findIndex((request) => request.orderAttendeeId === attendee.id && request.status === 'pending');
      return {
        id: attendee.id,
        name: attendee.name,
        nationality: attendee.nationality,
        idCardType: attendee.idCardType,
        idCardNoMasked: maskIdNumber(attendee.idCardNo),
        ticketNo: ticket?.ticketNo ?? null,
        changeable: refusal === null && waiting === -1 && ticketChangeable(ticket?.status ?? null),
        pending: waiting === -1 ? null : requests[waiting],
      };
    }),
    requests,
  };
}

/**
 * Asks to change one attendee of the buyer's order. The new attendee passes the checks of a new
 * profile attendee and needs the ID type the venue's country asks of their nationality.
 */
export async function requestAttendeeChange(scope: UserScope, orderId: number, input: AttendeeChangeInput): Promise<AttendeeChangeView> {
  const { db, env, userId, now, ctx } = scope;
  const row = await ownOrder(scope, orderId);
  const refusal = refusalOf(row, now);
  if (refusal) throw refusalError(refusal);
  const pair = (await attendeesWithTickets(db, orderId)).find(({ attendee }) => attendee.id === input.orderAttendeeId);
  if (!pair) throw new DomainError('attendee_not_found', {}, 'orderAttendeeId');
  if (!ticketChangeable(pair.ticket?.status ?? null)) throw new DomainError('attendee_change_ticket_unavailable', {}, 'orderAttendeeId');

  const issue = attendeeProblem(input, isCountryCode);
  if (issue) throw new DomainError(issue.problem, {}, issue.field);
  const expectedType = idCardTypeFor(row.countryCode, input.nationality);
  if (input.idCardType !== expectedType) {
    const type = translator(ctx.locale)(`profile.attendee.type.${expectedType}`);
    throw new DomainError('attendee_change_id_type_mismatch', { type }, 'idCardType');
  }
  const { attendee } = pair;
  const idCardNo = normalizeIdNumber(input.idCardNo);
  const [oldHash, newHash] = await Promise.all([
    idHash(env, attendee.nationality, attendee.idCardType, attendee.idCardNo),
    idHash(env, input.nationality, expectedType, idCardNo),
  ]);
  if (oldHash === newHash) throw new DomainError('attendee_change_same_person', {}, 'idCardNo');

  const [created] = await db
    .insert(attendeeChangeRequests)
    .values({
      orderId,
      orderAttendeeId: attendee.id,
      ticketId: pair.ticket?.id ?? null,
      requestedBy: userId,
      oldName: attendee.name,
      oldNationality: attendee.nationality,
      oldIdCardType: attendee.idCardType,
      oldIdMasked: maskIdNumber(attendee.idCardNo),
      oldIdHash: oldHash,
      newName: input.name.trim(),
      newNationality: input.nationality,
      newIdCardType: expectedType,
      newIdCardNo: idCardNo,
      newIdMasked: maskIdNumber(idCardNo),
      newIdHash: newHash,
      createdAt: now,
    })
    // The partial unique index allows one waiting request per attendee.
    .onConflictDoNothing()
    .returning();
  if (!created) throw new DomainError('attendee_change_pending', {}, 'orderAttendeeId');
  const [view] = await viewsOf(scope, [created]);
  return view;
}

/** The buyer withdraws their waiting request; one already decided (or not theirs) cannot be. */
export async function withdrawAttendeeChange(scope: UserScope, requestId: number): Promise<AttendeeChangeView> {
  const { db, userId, now } = scope;
  const [withdrawn] = await db
    .update(attendeeChangeRequests)
    .set({ status: 'withdrawn', decidedBy: userId, decidedAt: now, newIdCardNo: null })
    .where(
      and(
        eq(attendeeChangeRequests.id, requestId),
        eq(attendeeChangeRequests.requestedBy, userId),
        eq(attendeeChangeRequests.status, 'pending'),
      ),
    )
    .returning();
  if (withdrawn) return (await viewsOf(scope, [withdrawn]))[0];
  await visibleRequest(scope, requestId);
  throw new DomainError('attendee_change_decided');
}

/** A request the user may see (its buyer, the issuing seller, an operator) and whether they may decide it. */
async function visibleRequest(scope: UserScope, requestId: number): Promise<{ row: RequestRow; decides: boolean }> {
  const { db, userId } = scope;
  const [row] = await db.select().from(attendeeChangeRequests).where(eq(attendeeChangeRequests.id, requestId));
  if (!row) throw new DomainError('attendee_change_not_found');
  const decides = (await issuerOf(db, row.orderId)) === userId || (await decidesAll(db, userId));
  if (!decides && row.requestedBy !== userId) throw new DomainError('attendee_change_not_found');
  return { row, decides };
}

/** One request, to its buyer, the issuing seller or an operator. */
export async function getAttendeeChange(scope: UserScope, requestId: number): Promise<AttendeeChangeView> {
  const { row } = await visibleRequest(scope, requestId);
  return (await viewsOf(scope, [row]))[0];
}

/** The waiting requests the user decides: of the tickets they issued, or all for an operator; oldest first. */
export async function pendingAttendeeChanges(scope: UserScope): Promise<AttendeeChangeView[]> {
  const { db, userId } = scope;
  const waiting = eq(attendeeChangeRequests.status, 'pending');
  let where: SQL | undefined = waiting;
  if (!(await decidesAll(db, userId))) {
    const issued = await db.all<{ orderId: number; issuerId: number }>(
      issuersOf(sql`id IN (SELECT order_id FROM attendee_change_requests WHERE status = 'pending')`),
    );
    const orderIds = issued.filter((row) => row.issuerId === userId).map((row) => row.orderId);
    if (orderIds.length === 0) return [];
    where = and(waiting, inArray(attendeeChangeRequests.orderId, orderIds));
  }
  const rows = await db.select().from(attendeeChangeRequests).where(where).orderBy(asc(attendeeChangeRequests.createdAt));
  return viewsOf(scope, rows);
}

/** The ticket still has the entry nonce it had when read (both null for a paper ticket). */
const sameEntryNonce = (ticket: Pick<TicketRow, 'entryNonce'>) =>
  ticket.entryNonce === null ? isNull(tickets.entryNonce) : eq(tickets.entryNonce, ticket.entryNonce);

/**
 * Reissues a ticket's entry secret: an e-ticket gets a new entry nonce (services/gate/entry-secrets.ts),
 * so the old voucher's codes stop admitting at once and the voucher shows the new ones. Answered as
 * an update for the caller's batch, so the reissue commits with the change that calls for it; it
 * applies only if the ticket still admits with the nonce read and `when` holds at that point of the batch.
 */
export function reissueTicketCode(db: Db, ticket: Pick<TicketRow, 'id' | 'entryNonce'>, now: number, when: SQL) {
  // Wrapped: the update is a thenable that awaiting would run on its own.
  return {
    update: db
      .update(tickets)
      .set({ entryNonce: ticket.entryNonce === null ? null : newEntryNonce(), updatedAt: now })
      .where(and(eq(tickets.id, ticket.id), sameEntryNonce(ticket), eq(tickets.status, 'valid'), when)),
  };
}

/**
 * The seller who issued the tickets, or an operator, decides a waiting request once. Approving
 * (before the cut-off) changes the order's attendee and reissues the ticket's code in one batch;
 * refusing leaves both as they were. The buyer is told by a message (migrations/0017).
 */
export async function decideAttendeeChange(
  scope: UserScope,
  requestId: number,
  decision: 'approve' | 'refuse',
): Promise<AttendeeChangeView> {
  const { db, userId, now } = scope;
  const { row, decides } = await visibleRequest(scope, requestId);
  if (!decides) throw new DomainError('forbidden');
  if (row.status !== 'pending') throw new DomainError('attendee_change_decided');
  const isRequest = eq(attendeeChangeRequests.id, requestId);
  const pendingNow = and(isRequest, eq(attendeeChangeRequests.status, 'pending'));

  if (decision === 'refuse') {
    const [refused] = await db
      .update(attendeeChangeRequests)
      .set({ status: 'refused', decidedBy: userId, decidedAt: now, newIdCardNo: null })
      .where(pendingNow)
      .returning();
    if (!refused) throw new DomainError('attendee_change_decided');
    return (await viewsOf(scope, [refused]))[0];
  }

  const [show] = await orderWithShowQuery(db).where(eq(orders.id, row.orderId));
  const refusal = refusalOf(show, now);
  if (refusal) throw refusalError(refusal);
  // The attendee's ticket now: the order may have been ticketed since the request was made.
  const pair = (await attendeesWithTickets(db, row.orderId)).find(({ attendee }) => attendee.id === row.orderAttendeeId);
  const ticket = pair?.ticket ?? null;
  if (!pair || !ticketChangeable(ticket?.status ?? null) || row.newIdCardNo === null) {
    throw new DomainError('attendee_change_ticket_unavailable');
  }
  // The ticket as read must still admit when the decision commits (a scan may have used it since);
  // an unticketed order must still have no tickets.
  const ticketAsRead = ticket
    ? sql`EXISTS (SELECT 1 FROM ${tickets} WHERE ${tickets.id} = ${ticket.id} AND ${tickets.status} = 'valid' AND ${sameEntryNonce(ticket)})`
    : sql`NOT EXISTS (SELECT 1 FROM ${tickets} WHERE ${tickets.orderId} = ${row.orderId})`;
  // True from the approval until its new attendee is applied (the full number then cleared): what each later step needs.
  const approvedUnapplied = sql`EXISTS (SELECT 1 FROM ${attendeeChangeRequests} WHERE ${attendeeChangeRequests.id} = ${requestId}
    AND ${attendeeChangeRequests.status} = 'approved' AND ${attendeeChangeRequests.newIdCardNo} IS NOT NULL)`;
  const approve = db
    .update(attendeeChangeRequests)
    .set({ status: 'approved', decidedBy: userId, decidedAt: now, ticketId: ticket?.id ?? null })
    .where(and(pendingNow, ticketAsRead))
    .returning({ id: attendeeChangeRequests.id });
  const changeAttendee = db
    .update(orderAttendees)
    .set({ name: row.newName, nationality: row.newNationality, idCardType: row.newIdCardType, idCardNo: row.newIdCardNo })
    .where(and(eq(orderAttendees.id, row.orderAttendeeId), approvedUnapplied));
  const clearNumber = db
    .update(attendeeChangeRequests)
    .set({ newIdCardNo: null })
    .where(and(isRequest, eq(attendeeChangeRequests.status, 'approved'), isNotNull(attendeeChangeRequests.newIdCardNo)));
  const { approved } = await batch(db, {
    approved: approve,
    reissued: ticket ? [reissueTicketCode(db, ticket, now, approvedUnapplied).update] : [],
    changeAttendee,
    clearNumber,
  });
  if (approved.length === 0) {
    const [current] = await db.select().from(attendeeChangeRequests).where(isRequest);
    if (current.status !== 'pending') throw new DomainError('attendee_change_decided');
    throw new DomainError('attendee_change_ticket_unavailable');
  }
  const [decided] = await db.select().from(attendeeChangeRequests).where(isRequest);
  return (await viewsOf(scope, [decided]))[0];
}
