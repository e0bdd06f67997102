/** A staff member's own passkeys: the list, adding one, renaming and removing (never the last: the server says so). */
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { type Messages, scoped } from '../../lib/i18n/messages.ts';
import { Field } from '../shared/fields.tsx';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import AddPasskey, { type AddedPasskey } from './AddPasskey.tsx';
import './ops.css';

interface Props {
  messages: Messages;
  passkeys: AddedPasskey[];
  /** The page's language, for the dates. */
  locale: string;
}

type Change = { kind: 'rename'; id: number; name: string } | { kind: 'remove'; id: number };

export default function PasskeyManager({ messages, passkeys: initial, locale }: Props) {
  const t = scoped(messages, 'opsStaff.passkeys.');
  const [passkeys, setPasskeys] = useState(initial);
  const [renaming, setRenaming] = useState<{ id: number; name: string; error?: string } | null>(null);
  const [toast, showToast] = useToast();
  const date = (at: number | null) =>
    at === null ? t('never') : new Date(at).toLocaleString(locale, { timeZone: 'UTC', timeZoneName: 'short' });

  const change = useMutation<Change>({
    messages,
    call: (wanted) =>
      wanted.kind === 'rename'
        ? unwrap(api.v1.operator.passkeys[':id'].$patch({ param: { id: String(wanted.id) }, json: { name: wanted.name } }))
        : unwrap(api.v1.operator.passkeys[':id'].$delete({ param: { id: String(wanted.id) } })),
    onSuccess: (_, done) => {
      if (done.kind === 'rename') {
        setPasskeys((current) => current.map((passkey) => (passkey.id === done.id ? { ...passkey, name: done.name.trim() } : passkey)));
        setRenaming(null);
      } else setPasskeys((current) => current.filter((passkey) => passkey.id !== done.id));
      showToast({ tone: 'success', title: t(done.kind === 'rename' ? 'renamed' : 'removed') });
    },
    onFailure: ({ text, field }, wanted) => {
      if (wanted.kind === 'rename' && field === 'name') setRenaming((current) => current && { ...current, error: text });
      showToast({ tone: 'error', title: t('failed'), detail: text });
    },
  });

  function saveName(event: FormEvent) {
    event.preventDefault();
    if (renaming) void change.run({ kind: 'rename', id: renaming.id, name: renaming.name });
  }

  return (
    <div className="ops-panel">
      {passkeys.length === 0 ? (
        <p>{t('none')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('lastUsed')}</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {passkeys.map((passkey) => (
              <tr key={passkey.id}>
                <td>
                  {renaming?.id === passkey.id ? (
                    <form onSubmit={saveName} noValidate>
                      <Field
                        id={`ops-rename-${passkey.id}`}
                        label={t('renameLabel', { name: passkey.name })}
                        value={renaming.name}
                        onValue={(name) => setRenaming({ id: passkey.id, name })}
                        error={renaming.error}
                        maxLength={60}
                      />
                      <button type="submit" className="ops-secondary" disabled={change.busy}>
                        {t('save')}
                      </button>
                    </form>
                  ) : (
                    passkey.name
                  )}
                </td>
                <td>{date(passkey.createdAt)}</td>
                <td>{date(passkey.lastUsedAt)}</td>
                <td className="ops-row">
                  <button type="button" className="ops-secondary" onClick={() => setRenaming({ id: passkey.id, name: passkey.name })}>
                    {t('rename')}
                  </button>
                  <button
                    type="button"
                    className="ops-danger"
                    disabled={change.busy}
                    onClick={() =>
                      window.confirm(t('removeConfirm', { name: passkey.name })) && void change.run({ kind: 'remove', id: passkey.id })
                    }
                  >
                    {t('remove')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <AddPasskey
        messages={messages}
        onAdded={(passkey) => {
          setPasskeys((current) => [...current, passkey]);
          showToast({ tone: 'success', title: t('added') });
        }}
      />
      <Toast toast={toast} />
    </div>
  );
}
