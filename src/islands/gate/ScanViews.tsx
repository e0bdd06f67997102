/** What the door's check-in form shows: the code field, the ID check, the answer to a scan, and the device's own state. */
import type { FormEvent, RefObject } from 'react';
import { namesFinalIn, type DoorTicket } from '../../lib/domain/admission.ts';
import { scoped, type Messages } from '../../lib/i18n/messages.ts';
import type { DoorState } from './door-device.ts';

export type Outcome =
  | { admitted: true; offline: boolean; ticketNo: string; tier: string; seat: string | null }
  | { admitted: false; reasons: string[]; heading?: string };

/** A clock further off the server's than this makes the codes checked offline fail (the skew window is ±15 s). */
const CLOCK_WARNING_MS = 60_000;

export const CLOCK_TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };

/** A moment as the door shows it: in the page's language and the venue's zone (the device's own before the first sync). */
export function atDoor(at: number, timeZone: string | null, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(document.documentElement.lang || 'en', { ...options, timeZone: timeZone ?? undefined }).format(at);
}

interface ScanFormProps {
  input: RefObject<HTMLInputElement | null>;
  code: string;
  onCode: (code: string) => void;
  onSubmit: (event: FormEvent) => void;
  hydrated: boolean;
  busy: boolean;
  messages: Messages;
}

/** The field a handheld scanner types a voucher's code into (or staff a ticket number), and Admit. */
export function ScanForm({ input, code, onCode, onSubmit, hydrated, busy, messages }: ScanFormProps) {
  const t = scoped(messages, 'gate.');
  return (
    <form className="auth-form" noValidate onSubmit={onSubmit}>
      <fieldset className="auth-fieldset" disabled={!hydrated}>
        <div className="auth-field">
          <label htmlFor="gate-code">{t('code')}</label>
          <div className="auth-control">
            <input
              ref={input}
              id="gate-code"
              value={code}
              autoComplete="off"
              autoCapitalize="characters"
              spellCheck={false}
              maxLength={64}
              // biome-ignore lint/a11y/noAutofocus: gate staff scan or type a code the moment the page opens; it is the page's only task.
              autoFocus
              onChange={(event) => onCode(event.target.value)}
            />
          </div>
        </div>
        <button type="submit" className="auth-submit" disabled={busy}>
          {t('admit')}
        </button>
      </fieldset>
    </form>
  );
}

interface IdCheckProps {
  ticket: DoorTicket;
  messages: Messages;
  busy: boolean;
  onAdmit: () => void;
  onCancel: () => void;
}

/** A ticket looked up for the ID check: its real-name attendee and document, to compare with the holder's, then admit or cancel. */
export function IdCheck({ ticket, messages, busy, onAdmit, onCancel }: IdCheckProps) {
  const t = scoped(messages, 'gate.');
  return (
    <section className="gate-id-check" aria-labelledby="id-check-heading">
      <h3 id="id-check-heading">{t('idCheck.heading', { ticketNo: ticket.ticketNo })}</h3>
      <p>{t('ticket', { ticketNo: ticket.ticketNo, tier: ticket.tier })}</p>
      {ticket.seat && <p>{t('seat', { seat: ticket.seat })}</p>}
      {ticket.attendee ? (
        <>
          <p className="gate-id-name">{t('idCheck.name', { name: ticket.attendee.name })}</p>
          <p>{t('idCheck.document', { type: t(`idCheck.type.${ticket.attendee.idType}`), ending: ticket.attendee.idEnding })}</p>
        </>
      ) : (
        <p>{t('idCheck.noName')}</p>
      )}
      <div className="gate-id-actions">
        <button type="button" className="auth-submit" disabled={busy} onClick={onAdmit}>
          {t('idCheck.admit')}
        </button>
        <button type="button" className="gate-staff-remove" onClick={onCancel}>
          {t('idCheck.cancel')}
        </button>
      </div>
    </section>
  );
}

/** The answer to the last scan, large, green or red, in a region screen readers announce. */
export function ScanOutcome({ outcome, messages }: { outcome: Outcome | null; messages: Messages }) {
  const t = scoped(messages, 'gate.');
  return (
    <div className="gate-outcome-slot" role="status">
      {outcome && (
        <div className={outcome.admitted ? 'gate-outcome gate-admitted' : 'gate-outcome gate-refused'}>
          <p className="gate-verdict">{t(outcome.admitted ? 'admitted' : 'refused')}</p>
          {outcome.admitted ? (
            <>
              <p>{t('ticket', { ticketNo: outcome.ticketNo, tier: outcome.tier })}</p>
              {outcome.seat && <p>{t('seat', { seat: outcome.seat })}</p>}
              {outcome.offline && <p>{t('admittedOffline')}</p>}
            </>
          ) : (
            <>
              {outcome.heading && <p>{outcome.heading}</p>}
              {outcome.reasons.map((reason) => (
                <p key={reason}>{reason}</p>
              ))}
            </>
          )}
        </div>
      )}
    </div>
  );
}

interface DoorStatusProps {
  door: DoorState | null;
  online: boolean;
  uploadedNote: boolean;
  syncFailed: boolean;
  clockOffMs: number;
  hydrated: boolean;
  messages: Messages;
  onExchange: () => void;
}

/** The device's state: offline, admissions waiting to upload, the last sync, and warnings that offline checks would fail. */
export function DoorStatus({ door, online, uploadedNote, syncFailed, clockOffMs, hydrated, messages, onExchange }: DoorStatusProps) {
  const t = scoped(messages, 'gate.');
  const pending = door?.pending.length ?? 0;
  const syncedCount = door ? Object.keys(door.tickets).length : 0;
  const syncedTime = door?.syncedAt && door.timeZone ? atDoor(door.syncedAt, door.timeZone, CLOCK_TIME) : null;
  // Shown while the copy predates the close of attendee changes and holds a real-name ticket it would refuse offline.
  const namesFinalTime =
    door?.namesFinalAt && door.timeZone && !namesFinalIn(door) && Object.values(door.tickets).some((ticket) => ticket.attendee)
      ? atDoor(door.namesFinalAt, door.timeZone, { dateStyle: 'medium', timeStyle: 'short' })
      : null;
  return (
    <div className="gate-door">
      {!online && <p className="gate-offline">{t('offline')}</p>}
      {pending > 0 && <p>{t('pending', { count: pending })}</p>}
      {uploadedNote && <p>{t('uploaded')}</p>}
      <p>{syncedTime ? t('sync.ready', { count: syncedCount, time: syncedTime }) : t('sync.none')}</p>
      {syncFailed && door?.syncedAt && <p>{t('sync.failed')}</p>}
      {namesFinalTime && <p className="gate-offline">{t('sync.beforeNamesFinal', { time: namesFinalTime })}</p>}
      {clockOffMs > CLOCK_WARNING_MS && <p className="gate-offline">{t('sync.clockOff', { minutes: Math.round(clockOffMs / 60_000) })}</p>}
      <button type="button" className="gate-staff-remove" disabled={!hydrated} onClick={onExchange}>
        {t('sync.now')}
      </button>
    </div>
  );
}
