/**
 * The door device's copy of the session's tickets and what it does with it: kept in local storage
 * (door-device.ts), synced when the page opens and on demand, and the admissions it made offline
 * uploaded as soon as the network is back (and on a timer) until the server has decided each.
 */
import { useEffect, useState } from 'react';
import { api, unwrap, type ApiData } from '../../lib/browser/api-client.ts';
import { GATE_UPLOAD_RETRY_MS } from '../../lib/config/gate.ts';
import type { Messages } from '../../lib/i18n/messages.ts';
import { useMutation } from '../shared/mutation.ts';
import { loadDoor, saveDoor, synced, type DoorState, type PendingAdmission } from './door-device.ts';

type UploadOutcomes = ApiData<(typeof api.v1.gate.sessions)[':id']['offline-admissions']['$post']>;

interface Options {
  sessionId: number;
  messages: Messages;
  /** An upload's answer: the server's reasons for the admissions it refused (another door got there first). */
  onUploaded: (refused: string[]) => void;
}

export function useDoor({ sessionId, messages, onUploaded }: Options) {
  const [door, setDoor] = useState<DoorState | null>(null);
  const [syncFailed, setSyncFailed] = useState(false);
  const [clockOffMs, setClockOffMs] = useState(0);
  const [online, setOnline] = useState(true);
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

  // One upload at a time (the retry, the online event and the button may meet), so nothing is sent twice; a failed one waits for the next.
  const uploading = useMutation<DoorState, UploadOutcomes>({
    messages,
    call: (state) => unwrap(gate['offline-admissions'].$post({ param, json: { admissions: state.pending } })),
    onSuccess: (outcomes, { pending: sent }) => {
      setOnline(true);
      const wasSent = (admission: PendingAdmission) =>
        sent.some((item) => item.ticketNo === admission.ticketNo && item.admittedAt === admission.admittedAt);
      changeDoor((current) => ({ ...current, pending: current.pending.filter((admission) => !wasSent(admission)) }));
      onUploaded(outcomes.flatMap((result) => (result.admitted ? [] : [result.message])));
    },
  });

  /** Sends the admissions made offline, if any. */
  async function upload() {
    const state = loadDoor(sessionId);
    if (state.pending.length > 0) await uploading.run(state);
  }

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the page opens: the saved copy, then a fresh sync and any upload due.
  useEffect(() => {
    setDoor(loadDoor(sessionId));
    setOnline(navigator.onLine);
    void sync().then(upload);
    const goneOnline = () => {
      setOnline(true);
      void upload().then(sync);
    };
    const goneOffline = () => setOnline(false);
    window.addEventListener('online', goneOnline);
    window.addEventListener('offline', goneOffline);
    const retry = setInterval(() => void upload(), GATE_UPLOAD_RETRY_MS);
    return () => {
      window.removeEventListener('online', goneOnline);
      window.removeEventListener('offline', goneOffline);
      clearInterval(retry);
    };
  }, []);

  return {
    door,
    changeDoor,
    online,
    setOnline,
    syncFailed,
    clockOffMs,
    upload,
    /** "Sync tickets now": what this device admitted goes up first, then the fresh list comes down. */
    exchange: async () => {
      await upload();
      await sync();
    },
  };
}
