/**
 * What the address and attendee forms do once their fields pass the rules: create (POST) or
 * update (PUT) the record, then go back to the list; on failure, name the field and say why.
 */
import { request } from '../../lib/api/client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { failedField, failureText } from '../auth/messages.ts';
import type { ToastMessage } from '../auth/ui.tsx';

export interface SaveRecord {
  /** The collection, e.g. `/api/v1/addresses`; the record's id is appended when editing. */
  collection: string;
  id?: number;
  body: unknown;
  messages: Messages;
  savedKey: string;
  doneHref: string;
  setErrors: (errors: Record<string, string>) => void;
  setBusy: (busy: boolean) => void;
  showToast: (toast: ToastMessage) => void;
}

export async function saveRecord({ collection, id, body, messages, savedKey, doneHref, setErrors, setBusy, showToast }: SaveRecord) {
  setBusy(true);
  try {
    await request(id ? `${collection}/${id}` : collection, { method: id ? 'PUT' : 'POST', body });
    showToast({ tone: 'success', title: format(messages, savedKey) });
    location.assign(doneHref);
  } catch (cause) {
    const text = failureText(cause, messages);
    setErrors({ [failedField(cause) ?? 'form']: text });
    showToast({ tone: 'error', title: format(messages, 'profile.saveFailed'), detail: text });
    setBusy(false);
  }
}
