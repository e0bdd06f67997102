/**
 * What the address and attendee forms do once their fields pass the rules: create (POST) or
 * update (PUT) the record, then go back to the list; on failure, name the field and say why.
 */
import type { MessageKey } from '../../lib/i18n/keys.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useMutation, type Mutation } from '../shared/mutation.ts';
import type { ToastMessage } from '../shared/toast.tsx';

export interface SaveRecord<Input> {
  /** Creates the record, or updates it when editing. */
  save: (input: Input) => Promise<unknown>;
  messages: Messages;
  savedKey: MessageKey;
  doneHref: string;
  setErrors: (errors: Record<string, string>) => void;
  showToast: (toast: ToastMessage) => void;
}

/** The save of one record; `run(input)` sends it. */
export function useSaveRecord<Input>({ save, messages, savedKey, doneHref, setErrors, showToast }: SaveRecord<Input>): Mutation<Input> {
  return useMutation({
    messages,
    call: save,
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
