/**
 * Logout (SPEC.md section 4): calls the server, then clears the stored user and every cookie and
 * reloads; if the call fails, a toast says so and nothing is cleared.
 */
import { useState } from 'react';
import { request } from '../../lib/api/client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { clearSession } from '../../lib/stores/session.ts';
import { failureText } from './messages.ts';
import { Toast, useToast } from './ui.tsx';

interface Props {
  messages: Messages;
  /** Lets the header style the button like its menu links. */
  className?: string;
}

export default function LogoutButton({ messages, className }: Props) {
  const [busy, setBusy] = useState(false);
  const [toast, showToast] = useToast();

  async function logout() {
    setBusy(true);
    try {
      await request('v1/user/logout');
      clearSession();
      window.location.reload();
    } catch (cause) {
      setBusy(false);
      showToast({ tone: 'error', title: format(messages, 'auth.logoutFailed'), detail: failureText(cause, messages) });
    }
  }

  return (
    <>
      <button type="button" className={className ?? 'auth-link-button'} onClick={logout} disabled={busy}>
        {format(messages, 'auth.logout')}
      </button>
      <Toast toast={toast} />
    </>
  );
}
