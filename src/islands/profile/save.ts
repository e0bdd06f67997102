/**
 * What the address and attendee forms share: their errors, toast and hydration, and the save once
 * the fields pass the rules: create (POST) or update (PUT) the record, then go back to the list; on
 * failure, name the field and say why.
 */
import { useState, type FormEvent } from 'react';
import type { FieldIssue } from '../../lib/domain/identity.ts';
import type { MessageKey } from '../../lib/i18n/keys.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { useToast } from '../shared/toast.tsx';

/** The problems that have an `error.` message. */
type ErrorCode<Key = MessageKey> = Key extends `error.${infer Code}` ? Code : never;

export interface RecordForm<Input, Problem extends ErrorCode> {
  /** The record being edited; none when creating. */
  id?: number;
  create: (call: { json: Input }) => Promise<unknown>;
  update: (call: { param: { id: string }; json: Input }) => Promise<unknown>;
  /** The first rule the input breaks, checked as the API checks it. */
  problem: (input: Input) => FieldIssue<Problem> | null;
  /** The start of the field ids (`address` for `address-street`), to focus the field at fault. */
  prefix: string;
  messages: Messages;
  savedKey: MessageKey;
  doneHref: string;
}

/** A record form's state; `submit(event, input)` checks the input, then sends it. */
export function useRecordForm<Input, Problem extends ErrorCode>({
  id,
  create,
  update,
  problem,
  prefix,
  messages,
  savedKey,
  doneHref,
}: RecordForm<Input, Problem>) {
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const saving = useMutation({
    messages,
    call: (json: Input) => (id ? update({ param: { id: String(id) }, json }) : create({ json })),
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

  function submit(event: FormEvent, input: Input) {
    event.preventDefault();
    const issue = problem(input);
    if (issue) {
      setErrors({ [issue.field]: format(messages, `error.${issue.problem}`) });
      return document.getElementById(`${prefix}-${issue.field}`)?.focus();
    }
    void saving.run(input);
  }

  return { errors, setErrors, toast, hydrated, busy: saving.busy, submit };
}
