/**
 * The door's check-in form. A handheld scanner types what a voucher's QR code carries (the ticket
 * number and its rotating entry code) and presses Enter; staff may instead type a ticket number to
 * check the holder's photo ID, and admit after comparing it with the ticket's real-name attendee.
 * The answer is shown large, green or red, and the field is emptied and focused for the next holder.
 *
 * The device syncs the session's tickets (with their entry secrets) when the page opens and on
 * demand, and when the network is gone it decides by itself from that copy (domain/admission.ts
 * `offlineRefusal`): a code outside the skew window is refused, and a ticket it admitted is refused
 * the second time. Those admissions upload as soon as the network is back; the server decides each.
 */
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { ApiClientError, api, unwrap, type ApiData } from '../../lib/browser/api-client.ts';
import { GATE_UPLOAD_RETRY_MS } from '../../lib/config/gate.ts';
import { namesFinalIn, offlineRefusal, type DoorTicket } from '../../lib/domain/admission.ts';
import { parseEntryScan } from '../../lib/domain/entry-code.ts';
import type { MessageKey } from '../../lib/i18n/keys.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated, useValueTypedBeforeHydration } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { loadDoor, saveDoor, synced, withAdmitted, type DoorState, type PendingAdmission } from './door-device.ts';
import '../shared/forms.css';
import './gate.css';

interface Props {
  sessionId: number;
  admitted: number;
  issued: number;
  messages: Messages;
}

type Admission = ApiData<(typeof api.v1.gate.sessions)[':id']['admissions']['$post']>;
type Outcome =
  | { admitted: true; offline: boolean; ticketNo: string; tier: string; seat: string | null }
  | { admitted: false; reasons: string[]; heading?: string };
/** A scan to act on: admit by code, look a ticket up for the ID check, or admit after the ID check. */
type Scan =
  | { kind: 'code'; text: string; ticketNo: string; code: string }
  | { kind: 'ticket'; ticketNo: string }
  | { kind: 'idChecked'; ticketNo: string };
type Answer =
  | { kind: 'admitted'; admission: Admission }
  | { kind: 'idCheck'; ticket: DoorTicket }
  | { kind: 'offline'; ticket: DoorTicket | undefined; scan: Scan };

/** A clock further off the server's than this makes the codes checked offline fail (the skew window is ±15 s). */
const CLOCK_WARNING_MS = 60_000;

/** A failure of the network itself (no answer, or none in time), after which the device decides alone. */
const offlineFailure = (error: unknown) => error instanceof ApiClientError && error.kind !== 'http';

const CLOCK_TIME: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };

/** A moment as the door shows it: in the page's language and the venue's zone (the device's own before the first sync). */
function atDoor(at: number, timeZone: string | null, options: Intl.DateTimeFormatOptions): string {
  return new Intl.DateTimeFormat(document.documentElement.lang || 'en', { ...options, timeZone: timeZone ?? undefined }).format(at);
}

export default function GateScanner({ sessionId, admitted: admittedAtLoad, issued, messages: m }: Props) {
  const t = scoped(m, 'gate.');
  const say = (key: string, params?: Record<string, string | number>) => format(m, key as MessageKey, params);
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [idCheck, setIdCheck] = useState<DoorTicket | null>(null);
  const [admitted, setAdmitted] = useState(admittedAtLoad);
  const [door, setDoor] = useState<DoorState | null>(null);
  const [syncFailed, setSyncFailed] = useState(false);
  const [clockOffMs, setClockOffMs] = useState(0);
  const [online, setOnline] = useState(true);
  const [uploadedNote, setUploadedNote] = useState(false);
  /** An upload is on its way: another (the retry, the online event, the button) waits, so nothing is sent twice. */
  const uploading = useRef(false);
  const hydrated = useHydrated();
  const gate = api.v1.gate.sessions[':id'];
  const param = { id: String(sessionId) };

  /** Changes the device's copy and keeps it; the stored copy is the one truth, so changes in a row never undo each other. */
  function changeDoor(change: (state: DoorState) => DoorState): DoorState {
    const next = change(loadDoor(sessionId));
    saveDoor(sessionId, next);
    setDoor(next);
    return next;
  }

  async function sync() {
    try {
      const fresh = await unwrap(gate.sync.$get({ param }));
      setClockOffMs(Math.abs(Date.now() - fresh.syncedAt));
      changeDoor((state) => synced(state, fresh));
      setSyncFailed(false);
    } catch {
      setSyncFailed(true);
    }
  }

  /** Sends the admissions made offline; the server's refusals (another door got there first) are shown. */
  async function upload(state: DoorState) {
    if (state.pending.length === 0 || uploading.current) return;
    uploading.current = true;
    const sent = state.pending;
    let outcomes: ApiData<(typeof gate)['offline-admissions']['$post']>;
    try {
      outcomes = await unwrap(gate['offline-admissions'].$post({ param, json: { admissions: sent } }));
    } catch {
      return;
    } finally {
      uploading.current = false;
    }
    setOnline(true);
    const wasSent = (admission: PendingAdmission) =>
      sent.some((item) => item.ticketNo === admission.ticketNo && item.admittedAt === admission.admittedAt);
    changeDoor((current) => ({ ...current, pending: current.pending.filter((admission) => !wasSent(admission)) }));
    const refused = outcomes.flatMap((result) => (result.admitted ? [] : [result.message]));
    setAdmitted((count) => count - refused.length);
    setOutcome(refused.length > 0 ? { admitted: false, heading: t('conflicts'), reasons: refused } : null);
    if (refused.length === 0) setUploadedNote(true);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page opens: the saved copy, then a fresh sync and any upload due.
  useEffect(() => {
    const saved = loadDoor(sessionId);
    setDoor(saved);
    setOnline(navigator.onLine);
    void sync().then(() => upload(loadDoor(sessionId)));
    const goneOnline = () => {
      setOnline(true);
      void upload(loadDoor(sessionId)).then(sync);
    };
    const goneOffline = () => setOnline(false);
    window.addEventListener('online', goneOnline);
    window.addEventListener('offline', goneOffline);
    const retry = setInterval(() => void upload(loadDoor(sessionId)), GATE_UPLOAD_RETRY_MS);
    return () => {
      window.removeEventListener('online', goneOnline);
      window.removeEventListener('offline', goneOffline);
      clearInterval(retry);
    };
  }, []);

  /** "Sync tickets now": what this device admitted goes up first, then the fresh list comes down. */
  async function exchange() {
    await upload(loadDoor(sessionId));
    await sync();
  }

  /** The device's own decision, without the server. */
  async function decideOffline(ticket: DoorTicket | undefined, scan: Scan) {
    const state = loadDoor(sessionId);
    const waiting = state.pending.find((admission) => admission.ticketNo === scan.ticketNo);
    const refusal = await offlineRefusal(ticket, scan.kind === 'code' ? scan.code : null, waiting?.admittedAt, Date.now(), state);
    if (refusal) {
      const at = waiting?.admittedAt ?? ticket?.admittedAt ?? Date.now();
      const time = atDoor(at, state.timeZone, CLOCK_TIME);
      return setOutcome({ admitted: false, reasons: [say(`error.${refusal}`, { ticketNo: scan.ticketNo, time })] });
    }
    if (scan.kind === 'ticket') return setIdCheck(ticket!);
    const admission: PendingAdmission = {
      ticketNo: scan.ticketNo,
      admittedAt: Date.now(),
      method: scan.kind === 'code' ? 'code' : 'id_check',
    };
    changeDoor((current) =>
      withAdmitted({ ...current, pending: [...current.pending, admission] }, admission.ticketNo, admission.admittedAt),
    );
    setAdmitted((count) => count + 1);
    setOutcome({ admitted: true, offline: true, ticketNo: ticket!.ticketNo, tier: ticket!.tier, seat: ticket!.seat });
  }

  const check = useMutation<Scan, Answer>({
    messages: m,
    call: async (scan) => {
      try {
        if (scan.kind === 'ticket')
          return {
            kind: 'idCheck',
            ticket: await unwrap(gate.tickets[':ticketNo'].$get({ param: { ...param, ticketNo: scan.ticketNo } })),
          };
        const admission =
          scan.kind === 'code'
            ? await unwrap(gate.admissions.$post({ param, json: { code: scan.text } }))
            : await unwrap(gate['id-checked-admissions'].$post({ param, json: { ticketNo: scan.ticketNo } }));
        return { kind: 'admitted', admission };
      } catch (error) {
        if (!offlineFailure(error)) throw error;
        return { kind: 'offline', ticket: loadDoor(sessionId).tickets[scan.ticketNo], scan };
      }
    },
    onSuccess: (answer) => {
      setOnline(answer.kind !== 'offline');
      setIdCheck(null);
      if (answer.kind === 'offline') void decideOffline(answer.ticket, answer.scan);
      else if (answer.kind === 'idCheck') {
        setOutcome(null);
        setIdCheck(answer.ticket);
      } else {
        const { admission } = answer;
        changeDoor((state) => withAdmitted(state, admission.ticketNo, admission.admittedAt));
        setAdmitted((count) => count + 1);
        setOutcome({ admitted: true, offline: false, ticketNo: admission.ticketNo, tier: admission.tier, seat: admission.seat });
        void upload(loadDoor(sessionId));
      }
      nextCode();
    },
    onFailure: ({ text }) => {
      setIdCheck(null);
      setOutcome({ admitted: false, reasons: [text] });
      nextCode();
    },
  });
  useValueTypedBeforeHydration(input, code, setCode);

  function nextCode() {
    setCode('');
    input.current?.focus();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!code.trim()) return input.current?.focus();
    const scan = parseEntryScan(code);
    setUploadedNote(false);
    if (!scan) {
      setIdCheck(null);
      setOutcome({ admitted: false, reasons: [say('error.entry_code_invalid')] });
      return nextCode();
    }
    void check.run(scan.kind === 'code' ? { ...scan, text: code } : scan);
  }

  const pending = door?.pending.length ?? 0;
  const syncedCount = door ? Object.keys(door.tickets).length : 0;
  const syncedTime = door?.syncedAt && door.timeZone ? atDoor(door.syncedAt, door.timeZone, CLOCK_TIME) : null;

  // Shown while the copy predates the close of attendee changes and holds a real-name ticket it would refuse offline.
  const namesFinalTime =
    door?.namesFinalAt && door.timeZone && !namesFinalIn(door) && Object.values(door.tickets).some((ticket) => ticket.attendee)
      ? atDoor(door.namesFinalAt, door.timeZone, { dateStyle: 'medium', timeStyle: 'short' })
      : null;

  return (
    <>
      <p className="gate-count">{t('count', { admitted, issued })}</p>
      <form className="auth-form" noValidate onSubmit={submit}>
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
                onChange={(event) => setCode(event.target.value)}
              />
            </div>
          </div>
          <button type="submit" className="auth-submit" disabled={check.busy}>
            {t('admit')}
          </button>
        </fieldset>
      </form>
      {idCheck && (
        <section className="gate-id-check" aria-labelledby="id-check-heading">
          <h3 id="id-check-heading">{t('idCheck.heading', { ticketNo: idCheck.ticketNo })}</h3>
          <p>{t('ticket', { ticketNo: idCheck.ticketNo, tier: idCheck.tier })}</p>
          {idCheck.seat && <p>{t('seat', { seat: idCheck.seat })}</p>}
          {idCheck.attendee ? (
            <>
              <p className="gate-id-name">{t('idCheck.name', { name: idCheck.attendee.name })}</p>
              <p>{t('idCheck.document', { type: t(`idCheck.type.${idCheck.attendee.idType}`), ending: idCheck.attendee.idEnding })}</p>
            </>
          ) : (
            <p>{t('idCheck.noName')}</p>
          )}
          <div className="gate-id-actions">
            <button
              type="button"
              className="auth-submit"
              disabled={check.busy}
              onClick={() => void check.run({ kind: 'idChecked', ticketNo: idCheck.ticketNo })}
            >
              {t('idCheck.admit')}
            </button>
            <button
              type="button"
              className="gate-staff-remove"
              onClick={() => {
                setIdCheck(null);
                nextCode();
              }}
            >
              {t('idCheck.cancel')}
            </button>
          </div>
        </section>
      )}
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
      <div className="gate-door">
        {!online && <p className="gate-offline">{t('offline')}</p>}
        {pending > 0 && <p>{t('pending', { count: pending })}</p>}
        {uploadedNote && <p>{t('uploaded')}</p>}
        <p>{syncedTime ? t('sync.ready', { count: syncedCount, time: syncedTime }) : t('sync.none')}</p>
        {syncFailed && door?.syncedAt && <p>{t('sync.failed')}</p>}
        {namesFinalTime && <p className="gate-offline">{t('sync.beforeNamesFinal', { time: namesFinalTime })}</p>}
        {clockOffMs > CLOCK_WARNING_MS && (
          <p className="gate-offline">{t('sync.clockOff', { minutes: Math.round(clockOffMs / 60_000) })}</p>
        )}
        <button type="button" className="gate-staff-remove" disabled={!hydrated} onClick={() => void exchange()}>
          {t('sync.now')}
        </button>
      </div>
    </>
  );
}
