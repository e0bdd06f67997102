/**
 * "Notify Me When Available" for a signed-in user who has not subscribed yet (SPEC.md section 4):
 * subscribes with `POST v1/activity/favorite/{id}`, then shows "Selected for Notification". The page
 * renders the other cases without script: a login link for visitors, the selected state for subscribers.
 */
import { useState } from 'react';
import { ApiClientError, request } from '../../lib/api/client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';

interface Props {
  activityId: number;
  /** The favourite type of a notify-me subscription. */
  type: number;
  messages: Messages;
  /** Where to go when the session turns out to have expired. */
  loginUrl: string;
}

type State = 'idle' | 'saving' | 'subscribed';

export default function NotifyMe({ activityId, type, messages: m, loginUrl }: Props) {
  const [state, setState] = useState<State>('idle');
  const [error, setError] = useState<string | null>(null);

  async function subscribeNow() {
    setState('saving');
    setError(null);
    try {
      await request<{ subscribed: boolean }>(`v1/activity/favorite/${activityId}`, { method: 'POST', body: { type } });
      setState('subscribed');
    } catch (cause) {
      setState('idle');
      if (cause instanceof ApiClientError && cause.status === 401) {
        window.location.assign(loginUrl);
        return;
      }
      setError(cause instanceof ApiClientError && cause.kind === 'http' ? cause.message : format(m, 'detail.notify.failed'));
    }
  }

  return (
    <div className="notify">
      {state === 'subscribed' ? (
        <p className="notify-selected" role="status">{format(m, 'detail.notify.selected')}</p>
      ) : (
        <button type="button" className="notify-button" onClick={subscribeNow} disabled={state === 'saving'}>
          {format(m, 'detail.notify.button')}
        </button>
      )}
      {error && <p role="alert" className="error">{error}</p>}
    </div>
  );
}
