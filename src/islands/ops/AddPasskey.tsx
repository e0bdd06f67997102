/** Adding a passkey: its name, then the browser's prompt; the new passkey is handed to `onAdded`. */
import { type FormEvent, useState } from 'react';
import { type Messages, scoped } from '../../lib/i18n/messages.ts';
import { Field, SubmitRow } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import { addPasskey, promptClosed } from './passkey-calls.ts';

export interface AddedPasskey {
  id: number;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export default function AddPasskey({ messages, onAdded }: { messages: Messages; onAdded: (passkey: AddedPasskey) => void }) {
  const t = scoped(messages, 'opsStaff.passkeys.');
  const hydrated = useHydrated();
  const [name, setName] = useState(t('defaultName'));
  const [error, setError] = useState<string | undefined>();
  const [toast, showToast] = useToast();
  const adding = useMutation({
    messages,
    call: () => addPasskey(name),
    onSuccess: (passkey) => {
      setError(undefined);
      onAdded(passkey);
    },
    onFailure: ({ text, field, cause }) => {
      if (field === 'name') setError(text);
      showToast({
        tone: 'error',
        title: t('addFailed'),
        detail: promptClosed(cause) ? scoped(messages, 'opsStaff.signIn.')('cancelled') : text,
      });
    },
  });
  function submit(event: FormEvent) {
    event.preventDefault();
    if (hydrated) void adding.run();
  }
  return (
    <form className="ops-panel" onSubmit={submit} noValidate>
      <Field id="ops-passkey-name" label={t('newName')} value={name} onValue={setName} error={error} maxLength={60} />
      <SubmitRow busy={!hydrated || adding.busy} label={t('add')} />
      <Toast toast={toast} />
    </form>
  );
}
