/**
 * Logout (SPEC.md section 4): calls the server, then clears the stored user and every cookie and
 * reloads; if the call fails, a toast says so and nothing is cleared.
 */
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { clearSession } from '../../lib/browser/session.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';

interface Props {
  messages: Messages;
  /** Lets the header style the button like its menu links. */
  className?: string;
}

export default function LogoutButton({ messages, className }: Props) {
  const [toast, showToast] = useToast();
  const logout = useMutation({
    messages,
    call: () => unwrap(api.v1.user.logout.$get()),
    busyAfterSuccess: true,
    onSuccess: () => {
      clearSession();
      window.location.reload();
    },
    onFailure: ({ text }) => showToast({ tone: 'error', title: format(messages, 'auth.logoutFailed'), detail: text }),
  });

  return (
    <>
      <button type="button" className={className ?? 'auth-link-button'} onClick={() => void logout.run()} disabled={logout.busy}>
        {format(messages, 'auth.logout')}
      </button>
      <Toast toast={toast} />
    </>
  );
}
