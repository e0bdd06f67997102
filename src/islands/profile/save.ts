/**
 * What the address and attendee forms do once their fields pass the rules: create (POST) or
 * update (PUT) the record, then go back to the list; on failure, name the field and say why.
 */
import { request } from '../../lib/api/client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useMutation, type Mutation } from '../shared/mutation.ts';
import type { ToastMessage } from '../shared/toast.tsx';

export interface SaveRecord {
  /** The collection, e.g. `/api/v1/addresses`; the record's id is appended when editing. */
  collection: string;
  id?: number;
  messages: Messages;
  savedKey: string;
  doneHref: string;
  setErrors: (errors: Record<string, string>) => void;
  showToast: (toast: ToastMessage) => void;
}

/** The save of one record; `run(body)` sends it. */
export function useSaveRecord({ collection, id, messages, savedKey, doneHref, setErrors, showToast }: SaveRecord): Mutation<unknown> {
  return useMutation({
    messages,
    call: (body: unknown) => request(id ? `${collection}/${id}` : collection, { method: id ? 'PUT' : 'POST', body }),
    busyAfterSuccess: true,
    onSuccess: () => {
      showToast({ tone: 'success', title: format(messages, savedKey) });
      location.assign(doneHref);
    },
    onFailure: ({ text, field }) => {
      setErrors({ [field ?? 'form']: text });
      showToast({ tone: 'error', title: format(messages, 'profile.saveFailed'), detail: text });
    },
  });
}
