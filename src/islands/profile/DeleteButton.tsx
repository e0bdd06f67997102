/** Deletes one address or attendee after the user confirms, then reloads the list. */
import { useState } from 'react';
import { request } from '../../lib/api/client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { failureText } from '../auth/messages.ts';
import { Toast, useHydrated, useToast } from '../auth/ui.tsx';
import './profile.css';

interface Props {
  messages: Messages;
  /** The API path of the item, e.g. /api/v1/addresses/7. */
  endpoint: string;
  /** What the user calls the item: its name. */
  name: string;
}

export default function DeleteButton({ messages, endpoint, name }: Props) {
  const [busy, setBusy] = useState(false);
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();

  async function remove() {
    if (!confirm(format(messages, 'profile.deleteConfirm', { name }))) return;
    setBusy(true);
    try {
      await request(endpoint, { method: 'DELETE' });
      location.reload();
    } catch (cause) {
      showToast({ tone: 'error', title: format(messages, 'profile.deleteFailed'), detail: failureText(cause, messages) });
      setBusy(false);
    }
  }

  return (
    <>
      <button type="button" className="profile-action" disabled={!hydrated || busy} aria-label={format(messages, 'profile.deleteNamed', { name })} onClick={remove}>
        {format(messages, 'profile.delete')}
      </button>
      <Toast toast={toast} />
    </>
  );
}
