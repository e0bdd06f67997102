/** Publishes an activity to buyers, or hides it again; the page is shown again in its new state. */
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import './ops-forms.css';

interface Props {
  activityId: number;
  published: boolean;
  messages: Messages;
}

export default function PublishButtons({ activityId, published, messages }: Props) {
  const [toast, setToast] = useToast();
  const hydrated = useHydrated();
  const param = { id: String(activityId) };
  const mutation = useMutation<boolean>({
    messages,
    call: (publish) =>
      publish
        ? unwrap(api.v1.operator.activities[':id'].publish.$post({ param }))
        : unwrap(api.v1.operator.activities[':id'].unpublish.$post({ param })),
    busyAfterSuccess: true,
    onSuccess: () => window.location.reload(),
    onFailure: (failure) => setToast({ tone: 'error', title: failure.text }),
  });
  return (
    <div className="ops-actions">
      {published ? (
        <button type="button" disabled={mutation.busy || !hydrated} onClick={() => void mutation.run(false)}>
          {format(messages, 'opsCatalogue.unpublish')}
        </button>
      ) : (
        <button type="button" className="ops-primary" disabled={mutation.busy || !hydrated} onClick={() => void mutation.run(true)}>
          {format(messages, 'opsCatalogue.publish')}
        </button>
      )}
      <Toast toast={toast} />
    </div>
  );
}
