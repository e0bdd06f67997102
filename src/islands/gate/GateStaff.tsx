/**
 * The seller's door staff for one session: who may admit the seller's tickets with their own
 * account, a field to add someone by email or phone, and a Remove button per person. Errors stay
 * on the field with the server's words; what was typed stays for correcting.
 */
import { useState, type FormEvent } from 'react';
import { request } from '../../lib/api/client.ts';
import { scoped, type Messages } from '../../lib/i18n/messages.ts';
import type { DoorStaff } from '../../lib/services/admission.ts';
import { failedField, failureText } from '../auth/messages.ts';
import { Field, Toast, useHydrated, useToast } from '../auth/ui.tsx';
import '../auth/auth.css';
import './gate.css';

interface Props {
  sessionId: number;
  staff: DoorStaff[];
  messages: Messages;
}

export default function GateStaff({ sessionId, staff: staffAtLoad, messages: m }: Props) {
  const t = scoped(m, 'gate.staff.');
  const [staff, setStaff] = useState(staffAtLoad);
  const [account, setAccount] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [toast, setToast] = useToast();
  const hydrated = useHydrated();
  const path = `/api/v1/gate/sessions/${sessionId}/staff`;

  async function change(call: () => Promise<DoorStaff[]>, done: (list: DoorStaff[]) => string) {
    setBusy(true);
    try {
      const list = await call();
      setStaff(list);
      setError(undefined);
      setToast({ tone: 'success', title: done(list) });
      return true;
    } catch (cause) {
      if (failedField(cause) === 'account') setError(failureText(cause, m));
      else setToast({ tone: 'error', title: failureText(cause, m) });
      return false;
    } finally {
      setBusy(false);
    }
  }

  async function add(event: FormEvent) {
    event.preventDefault();
    const added = await change(
      () => request<DoorStaff[]>(path, { method: 'POST', body: { account } }),
      (list) => t('added', { name: list.find((person) => person.account === account.trim().toLowerCase())?.nickname ?? account.trim() }),
    );
    if (added) setAccount('');
  }

  return (
    <section aria-labelledby="staff-heading" className="gate-staff">
      <h3 id="staff-heading">{t('heading')}</h3>
      <p className="intro">{t('intro')}</p>
      {staff.length === 0 ? (
        <p className="empty">{t('none')}</p>
      ) : (
        <ul className="gate-staff-list">
          {staff.map((person) => (
            <li key={person.userId}>
              <span>{person.nickname} <span className="muted">{person.account}</span></span>
              <button
                type="button" className="gate-staff-remove" disabled={!hydrated || busy}
                onClick={() => change(() => request<DoorStaff[]>(`${path}/${person.userId}`, { method: 'DELETE' }), () => t('removed', { name: person.nickname }))}
              >
                {t('remove', { name: person.nickname })}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="auth-form" noValidate onSubmit={add}>
        <fieldset className="auth-fieldset" disabled={!hydrated}>
          <Field
            id="staff-account" label={t('account')} value={account} error={error} autoComplete="off" maxLength={260}
            onChange={(event) => setAccount(event.target.value)}
          />
          <button type="submit" className="auth-submit" disabled={busy || !account.trim()}>{t('add')}</button>
        </fieldset>
      </form>
      <Toast toast={toast} />
    </section>
  );
}
