/**
 * "Notify Me When Available" for a signed-in user who has not subscribed yet (SPEC.md section 4):
 * subscribes with `POST v1/activity/favorite/{id}`, then shows "Selected for Notification". The page
 * renders the other cases without script: a login link for visitors, the selected state for subscribers.
 */
import { useState } from 'react';
import { api, ApiClientError, unwrap } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useMutation } from '../shared/mutation.ts';

interface Props {
  activityId: number;
  /** The favourite type of a notify-me subscription. */
  type: number;
  messages: Messages;
}

export default function NotifyMe({ activityId, type, messages: m }: Props) {
  const [subscribed, setSubscribed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const subscription = useMutation({
    messages: m,
    call: () => {
      const subscription = { param: { id: String(activityId) }, json: { type } };
      return unwrap(api.v1.activity.favorite[':id'].$post(subscription));
    },
    onSuccess: () => setSubscribed(true),
    onFailure: ({ text, cause }) =>
      setError(cause instanceof ApiClientError && cause.kind === 'http' ? text : format(m, 'detail.notify.failed')),
  });

  function subscribeNow() {
    setError(null);
    void subscription.run();
  }

  return (
    <div className="notify">
      {subscribed ? (
        <p className="notify-selected" role="status">
          {format(m, 'detail.notify.selected')}
        </p>
      ) : (
        <button type="button" className="notify-button" onClick={subscribeNow} disabled={subscription.busy}>
          {format(m, 'detail.notify.button')}
        </button>
      )}
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </div>
  );
}
