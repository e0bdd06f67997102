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
import { useRef, useState, type FormEvent } from 'react';
import { ApiClientError, api, unwrap, type ApiData } from '../../lib/browser/api-client.ts';
import { offlineRefusal, type DoorTicket } from '../../lib/domain/admission.ts';
import { parseEntryScan } from '../../lib/domain/entry-code.ts';
import type { MessageKey } from '../../lib/i18n/keys.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated, useValueTypedBeforeHydration } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { loadDoor, withAdmitted, type PendingAdmission } from './door-device.ts';
import { atDoor, CLOCK_TIME, DoorStatus, IdCheck, ScanForm, ScanOutcome, type Outcome } from './ScanViews.tsx';
import { useDoor } from './useDoor.ts';
import '../shared/forms.css';
import './gate.css';

interface Props {
  sessionId: number;
  admitted: number;
  issued: number;
  messages: Messages;
}

type Admission = ApiData<(typeof api.v1.gate.sessions)[':id']['admissions']['$post']>;
/** A scan to act on: admit by code, look a ticket up for the ID check, or admit after the ID check. */
type Scan =
  | { kind: 'code'; text: string; ticketNo: string; code: string }
  | { kind: 'ticket'; ticketNo: string }
  | { kind: 'idChecked'; ticketNo: string };
type Answer =
  | { kind: 'admitted'; admission: Admission }
  | { kind: 'idCheck'; ticket: DoorTicket }
  | { kind: 'offline'; ticket: DoorTicket | undefined; scan: Scan };

/** A failure of the network itself (no answer, or none in time), after which the device decides alone. */
const offlineFailure = (error: unknown) => error instanceof ApiClientError && error.kind !== 'http';

export default function GateScanner({ sessionId, admitted: admittedAtLoad, issued, messages: m }: Props) {
  const t = scoped(m, 'gate.');
  const say = (key: string, params?: Record<string, string | number>) => format(m, key as MessageKey, params);
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [idCheck, setIdCheck] = useState<DoorTicket | null>(null);
  const [admitted, setAdmitted] = useState(admittedAtLoad);
  const [uploadedNote, setUploadedNote] = useState(false);
  const hydrated = useHydrated();
  const gate = api.v1.gate.sessions[':id'];
  const param = { id: String(sessionId) };
  const door = useDoor({
    sessionId,
    messages: m,
    onUploaded: (refused) => {
      setAdmitted((count) => count - refused.length);
      setOutcome(refused.length > 0 ? { admitted: false, heading: t('conflicts'), reasons: refused } : null);
      if (refused.length === 0) setUploadedNote(true);
    },
  });

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
    door.changeDoor((current) =>
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
      door.setOnline(answer.kind !== 'offline');
      setIdCheck(null);
      if (answer.kind === 'offline') void decideOffline(answer.ticket, answer.scan);
      else if (answer.kind === 'idCheck') {
        setOutcome(null);
        setIdCheck(answer.ticket);
      } else {
        const { admission } = answer;
        door.changeDoor((state) => withAdmitted(state, admission.ticketNo, admission.admittedAt));
        setAdmitted((count) => count + 1);
        setOutcome({ admitted: true, offline: false, ticketNo: admission.ticketNo, tier: admission.tier, seat: admission.seat });
        void door.upload();
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

  return (
    <>
      <p className="gate-count">{t('count', { admitted, issued })}</p>
      <ScanForm input={input} code={code} onCode={setCode} onSubmit={submit} hydrated={hydrated} busy={check.busy} messages={m} />
      {idCheck && (
        <IdCheck
          ticket={idCheck}
          messages={m}
          busy={check.busy}
          onAdmit={() => void check.run({ kind: 'idChecked', ticketNo: idCheck.ticketNo })}
          onCancel={() => {
            setIdCheck(null);
            nextCode();
          }}
        />
      )}
      <ScanOutcome outcome={outcome} messages={m} />
      <DoorStatus
        door={door.door}
        online={door.online}
        uploadedNote={uploadedNote}
        syncFailed={door.syncFailed}
        clockOffMs={door.clockOffMs}
        hydrated={hydrated}
        messages={m}
        onExchange={() => void door.exchange()}
      />
    </>
  );
}
