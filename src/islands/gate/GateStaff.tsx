/**
 * The seller's door staff for one session: who may admit the seller's tickets with their own
 * account, a field to add someone by email or phone, and a Remove button per person. Errors stay
 * on the field with the server's words; what was typed stays for correcting.
 */
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { scoped, type Messages } from '../../lib/i18n/messages.ts';
import type { DoorStaff } from '../../lib/services/gate/door-staff.ts';
import { Field } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
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
  const [toast, setToast] = useToast();
  const hydrated = useHydrated();
  const staffApi = api.v1.gate.sessions[':id'].staff;

  /** Adds (an account) or removes (a user id) one member of the staff; the server answers the new list. */
  const change = useMutation({
    messages: m,
    call: (member: { account: string } | { userId: number; nickname: string }) => {
      if (!('account' in member))
        return unwrap(staffApi[':userId'].$delete({ param: { id: String(sessionId), userId: String(member.userId) } }));
      const addition = { param: { id: String(sessionId) }, json: { account: member.account } };
      return unwrap(staffApi.$post(addition));
    },
    onSuccess: (list, member) => {
      setStaff(list);
      setError(undefined);
      if ('account' in member) {
        const typed = member.account.trim();
        setAccount('');
        setToast({
          tone: 'success',
          title: t('added', { name: list.find((person) => person.account === typed.toLowerCase())?.nickname ?? typed }),
        });
      } else {
        setToast({ tone: 'success', title: t('removed', { name: member.nickname }) });
      }
    },
    onFailure: ({ text, field }) => {
      if (field === 'account') setError(text);
      else setToast({ tone: 'error', title: text });
    },
  });
  const busy = change.busy;

  function add(event: FormEvent) {
    event.preventDefault();
    void change.run({ account });
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
              <span>
                {person.nickname} <span className="muted">{person.account}</span>
              </span>
              <button
                type="button"
                className="gate-staff-remove"
                disabled={!hydrated || busy}
                onClick={() => void change.run({ userId: person.userId, nickname: person.nickname })}
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
            id="staff-account"
            label={t('account')}
            value={account}
            error={error}
            autoComplete="off"
            maxLength={260}
            onValue={setAccount}
          />
          <button type="submit" className="auth-submit" disabled={busy || !account.trim()}>
            {t('add')}
          </button>
        </fieldset>
      </form>
      <Toast toast={toast} />
    </section>
  );
}
