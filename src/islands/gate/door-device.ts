/**
 * What a door device keeps for one session so it admits without signal: the tickets it last synced
 * (with the entry secrets of the valid ones) and the admissions it made offline, not yet uploaded.
 * Kept in local storage under the session, on the staff's own signed-in device; a fresh sync
 * replaces the tickets, and the admissions still waiting stay applied over them.
 */
import type { DoorCopy, DoorTicket } from '../../lib/domain/admission.ts';

export interface PendingAdmission {
  ticketNo: string;
  admittedAt: number;
  method: 'code' | 'id_check';
}

export interface DoorState extends DoorCopy {
  /** The server's time of the last sync, null before the first. */
  syncedAt: number | null;
  timeZone: string | null;
  tickets: Record<string, DoorTicket>;
  pending: PendingAdmission[];
}

const keyOf = (sessionId: number) => `gate-door:${sessionId}`;

const EMPTY: DoorState = { syncedAt: null, namesFinalAt: null, timeZone: null, tickets: {}, pending: [] };

export function loadDoor(sessionId: number): DoorState {
  try {
    const saved = localStorage.getItem(keyOf(sessionId));
    return saved ? { ...EMPTY, ...(JSON.parse(saved) as DoorState) } : EMPTY;
  } catch {
    // Storage blocked or a copy from an older page: the next sync starts afresh.
    return EMPTY;
  }
}

export function saveDoor(sessionId: number, state: DoorState): void {
  try {
    localStorage.setItem(keyOf(sessionId), JSON.stringify(state));
  } catch {
    // Storage full or blocked: the device still admits online.
  }
}

/** The state with a ticket marked admitted at `at` (after an online admission, or one made offline). */
export function withAdmitted(state: DoorState, ticketNo: string, at: number): DoorState {
  const ticket = state.tickets[ticketNo];
  if (!ticket) return state;
  return { ...state, tickets: { ...state.tickets, [ticketNo]: { ...ticket, status: 'used', secret: null, admittedAt: at } } };
}

/** A fresh sync from the server, with the admissions still waiting to upload applied over it. */
export function synced(
  state: DoorState,
  sync: { syncedAt: number; namesFinalAt: number; timeZone: string; tickets: DoorTicket[] },
): DoorState {
  const fresh: DoorState = {
    syncedAt: sync.syncedAt,
    namesFinalAt: sync.namesFinalAt,
    timeZone: sync.timeZone,
    tickets: Object.fromEntries(sync.tickets.map((ticket) => [ticket.ticketNo, ticket])),
    pending: state.pending,
  };
  return state.pending.reduce((next, admission) => withAdmitted(next, admission.ticketNo, admission.admittedAt), fresh);
}
