/**
 * The door without signal (docs/entry-codes.md): a door device syncs the session's entry secrets
 * and admits by them, then uploads its admissions, which the server decides one by one as if each
 * ticket were scanned at that moment (admission.ts).
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { activitySessions, admissions } from '../../db/schema.ts';
import type { DoorTicket } from '../../domain/admission.ts';
import { attendeeChangeDeadline } from '../../domain/attendee-change.ts';
import { DomainError } from '../../domain/errors.ts';
import { translator } from '../../i18n/index.ts';
import type { UserScope } from '../platform/scope.ts';
import {
  type AdmissionRecord,
  doorTickets,
  recordAdmission,
  requireAdmissible,
  requireGateStaff,
  sessionRows,
  ticketByNumber,
} from './admission.ts';

export interface DoorSync {
  /** The server's clock when the list was made: a device whose clock is far off says so. */
  syncedAt: number;
  /** The zone the session's times are shown in (the venue's). */
  timeZone: string;
  /** When attendee changes close: a copy synced before it may hold a real-name ticket's replaced code. */
  namesFinalAt: number;
  tickets: DoorTicket[];
}

/**
 * What a door device keeps to admit without signal: every e-ticket of the session its sellers
 * issued, with the entry secrets of the valid ones. Only the session's door staff get it, and
 * only their own sellers' tickets.
 */
export async function doorSync(scope: UserScope, sessionId: number): Promise<DoorSync> {
  const sellers = await requireGateStaff(scope, sessionId);
  const [[show], list] = await Promise.all([
    sessionRows(scope.db).where(eq(activitySessions.id, sessionId)),
    doorTickets(scope, sessionId, sellers),
  ]);
  return {
    syncedAt: scope.now,
    timeZone: show.city.timeZone,
    namesFinalAt: attendeeChangeDeadline(show.session.startsAt),
    tickets: list,
  };
}

export interface OfflineAdmission {
  ticketNo: string;
  /** When the device admitted the ticket, by its clock. */
  admittedAt: number;
  method: AdmissionRecord['method'];
}

export type OfflineOutcome =
  | { ticketNo: string; admitted: true }
  | { ticketNo: string; admitted: false; errorCode: string; message: string };

/** Whether the ticket's recorded admission is this upload's, recorded by an earlier try whose answer the device never got. */
async function uploadedBefore(db: Db, ticketId: number, staffId: number, upload: OfflineAdmission): Promise<boolean> {
  const [row] = await db.select().from(admissions).where(eq(admissions.ticketId, ticketId));
  // The first try kept the device's time, or the server's then if the device's was later.
  return row?.offline === true && row.staffId === staffId && row.admittedAt === Math.min(upload.admittedAt, row.recordedAt);
}

/**
 * Records what a door device admitted without signal. The server decides each ticket as if it
 * were scanned now (one admission per ticket): an admission another door or an online scan got to
 * first is a conflict the device shows its staff, with the reason in their language; the same
 * upload sent again (its answer was lost) is answered as before. The device's time is kept as the
 * admission's, never later than now.
 */
export async function recordOfflineAdmissions(scope: UserScope, sessionId: number, uploads: OfflineAdmission[]): Promise<OfflineOutcome[]> {
  const { db, userId, now } = scope;
  const t = translator(scope.ctx.locale);
  const sellers = await requireGateStaff(scope, sessionId);
  const outcomes: OfflineOutcome[] = [];
  for (const upload of uploads) {
    const ticketNo = upload.ticketNo.trim().toUpperCase();
    try {
      const found = await ticketByNumber(db, ticketNo);
      if (await uploadedBefore(db, found.ticket.id, userId, upload)) {
        outcomes.push({ ticketNo, admitted: true });
        continue;
      }
      await requireAdmissible(scope, sessionId, sellers, found);
      const admittedAt = Math.min(upload.admittedAt, now);
      await recordAdmission(scope, sellers, found, {
        ticketId: found.ticket.id,
        sessionId,
        staffId: userId,
        method: upload.method,
        offline: true,
        admittedAt,
        // The device checked the code against the secret it synced; the server has nothing to check it against.
        checkedNonce: null,
      });
      outcomes.push({ ticketNo, admitted: true });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      outcomes.push({ ticketNo, admitted: false, errorCode: error.code, message: t(`error.${error.code}`, error.params) });
    }
  }
  return outcomes;
}
