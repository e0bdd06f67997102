/** Deletes one address or attendee after the user confirms, then reloads the list. */
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { Toast, useToast } from '../shared/toast.tsx';
import './profile.css';

interface Props {
  messages: Messages;
  /** What is deleted: one of the user's addresses or attendees, by id. */
  collection: 'addresses' | 'attendees';
  id: number;
  /** What the user calls the item: its name. */
  name: string;
}

export default function DeleteButton({ messages, collection, id, name }: Props) {
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const deletion = useMutation({
    messages,
    call: () => {
      const param = { id: String(id) };
      return collection === 'addresses'
        ? unwrap(api.v1.addresses[':id'].$delete({ param }))
        : unwrap(api.v1.attendees[':id'].$delete({ param }));
    },
    busyAfterSuccess: true,
    onSuccess: () => location.reload(),
    onFailure: ({ text }) => showToast({ tone: 'error', title: format(messages, 'profile.deleteFailed'), detail: text }),
  });

  function remove() {
    if (confirm(format(messages, 'profile.deleteConfirm', { name }))) void deletion.run();
  }

  return (
    <>
      <button
        type="button"
        className="profile-action"
        disabled={!hydrated || deletion.busy}
        aria-label={format(messages, 'profile.deleteNamed', { name })}
        onClick={remove}
      >
        {format(messages, 'profile.delete')}
      </button>
      <Toast toast={toast} />
    </>
  );
}
