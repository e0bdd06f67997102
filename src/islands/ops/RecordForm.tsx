/**
 * A console form for one venue, artist, category or activity, new or edited: the domain's rules are
 * checked as it is sent (every field's problem shown at once), then the API's answer; what was
 * typed stays in the form whatever happens. A saved new activity opens its own page (sessions and tiers
 * are added there); anything else shows the page again with the record in its list.
 */
import { type FormEvent, useRef, useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import type { DraftProblem } from '../../lib/domain/catalogue-drafts.ts';
import type { MessageKey } from '../../lib/i18n/keys.ts';
import type { FormField } from '../../lib/loaders/ops-catalogue.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { Field, FieldFrame, SubmitRow } from '../shared/fields.tsx';
import { useCheckedBeforeHydration, useHydrated, useValueTypedBeforeHydration } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { Toast, useToast } from '../shared/toast.tsx';
import { type FormValues, type RecordKind, recordDraft } from './catalogue-forms.ts';
import { PosterField } from './PosterField.tsx';
import './ops-forms.css';

interface Props {
  kind: RecordKind;
  /** null for a new record. */
  recordId: number | null;
  fields: FormField[];
  initial: FormValues;
  submitLabel: string;
  /** Where a new activity opens, its id appended (a locale's `/ops/activities/`). */
  openPath?: string;
  messages: Messages;
}

export function problemTexts(problems: readonly DraftProblem[], messages: Messages): Record<string, string> {
  const texts: Record<string, string> = {};
  for (const problem of problems) texts[problem.field] ??= format(messages, `error.${problem.code}` as MessageKey);
  return texts;
}

function save(kind: RecordKind, id: number | null, draft: ReturnType<typeof recordDraft>['draft']): Promise<{ id: number }> {
  const operator = api.v1.operator;
  const param = { id: String(id) };
  switch (kind) {
    case 'venue': {
      const json = draft as Parameters<typeof operator.venues.$post>[0]['json'];
      return id === null ? unwrap(operator.venues.$post({ json })) : unwrap(operator.venues[':id'].$patch({ param, json }));
    }
    case 'artist': {
      const json = draft as Parameters<typeof operator.artists.$post>[0]['json'];
      return id === null ? unwrap(operator.artists.$post({ json })) : unwrap(operator.artists[':id'].$patch({ param, json }));
    }
    case 'category': {
      const json = draft as Parameters<typeof operator.categories.$post>[0]['json'];
      return id === null ? unwrap(operator.categories.$post({ json })) : unwrap(operator.categories[':id'].$patch({ param, json }));
    }
    case 'activity': {
      const json = draft as Parameters<typeof operator.activities.$post>[0]['json'];
      return id === null ? unwrap(operator.activities.$post({ json })) : unwrap(operator.activities[':id'].$patch({ param, json }));
    }
  }
}

/** A checkbox that keeps a tick made before its island hydrated. */
export function CheckField({
  id,
  label,
  checked,
  onChecked,
}: {
  id: string;
  label: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useCheckedBeforeHydration(ref, checked, onChecked);
  return (
    <label className="ops-check" htmlFor={id}>
      <input ref={ref} id={id} type="checkbox" checked={checked} onChange={(event) => onChecked(event.target.checked)} />
      {label}
    </label>
  );
}

/** A labelled text area with its error, keeping what was typed before its island hydrated. */
function TextAreaField({
  id,
  label,
  value,
  error,
  onValue,
}: {
  id: string;
  label: string;
  value: string;
  error?: string;
  onValue: (value: string) => void;
}) {
  const ref = useRef<HTMLTextAreaElement>(null);
  useValueTypedBeforeHydration(ref, value, onValue);
  return (
    <FieldFrame id={id} label={label} error={error}>
      <textarea
        ref={ref}
        id={id}
        name={id}
        rows={4}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onValue(event.target.value)}
      />
    </FieldFrame>
  );
}

export default function RecordForm({ kind, recordId, fields, initial, submitLabel, openPath, messages }: Props) {
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [toast, setToast] = useToast();
  // A send before React runs would be the browser's own, losing the form: the button waits for it.
  const hydrated = useHydrated();
  const prefix = `${kind}-${recordId ?? 'new'}`;
  const change = (name: string, value: string) => setValues((current) => ({ ...current, [name]: value }));

  const mutation = useMutation<ReturnType<typeof recordDraft>['draft'], { id: number }>({
    messages,
    call: (draft) => save(kind, recordId, draft),
    busyAfterSuccess: true,
    onSuccess: (saved) => {
      if (recordId === null && openPath) window.location.assign(`${openPath}${saved.id}`);
      else if (recordId === null) window.location.reload();
      else {
        mutation.release();
        setToast({ tone: 'success', title: format(messages, 'opsCatalogue.saved') });
      }
    },
    onFailure: (failure) => setErrors({ [failure.field ?? '']: failure.text }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const { draft, problems } = recordDraft(kind, values);
    setErrors(problemTexts(problems, messages));
    if (problems.length === 0) void mutation.run(draft);
  }

  const formError =
    errors[''] ?? (Object.keys(errors).some((field) => fields.every((spec) => spec.name !== field)) ? Object.values(errors)[0] : undefined);
  return (
    <form className="ops-form" onSubmit={submit} noValidate>
      {Object.keys(errors).length > 0 && <p className="ops-form-summary">{format(messages, 'opsCatalogue.fixErrors')}</p>}
      {fields.map((spec) => {
        const id = `${prefix}-${spec.name.replace('.', '-')}`;
        const common = {
          id,
          label: spec.label,
          value: values[spec.name] ?? '',
          error: errors[spec.name],
          onValue: (value: string) => change(spec.name, value),
        };
        switch (spec.type) {
          case 'select':
            return <SelectField key={spec.name} {...common} options={spec.options ?? []} />;
          case 'checkbox':
            return (
              <CheckField
                key={spec.name}
                id={id}
                label={spec.label}
                checked={values[spec.name] === 'true'}
                onChecked={(checked) => change(spec.name, String(checked))}
              />
            );
          case 'textarea':
            return <TextAreaField key={spec.name} {...common} />;
          case 'poster':
            return <PosterField key={spec.name} {...common} messages={messages} onValue={common.onValue} />;
          default:
            return (
              <Field
                key={spec.name}
                {...common}
                type={spec.type === 'number' ? 'number' : 'text'}
                step={spec.step}
                inputMode={spec.type === 'number' ? 'decimal' : undefined}
              />
            );
        }
      })}
      <SubmitRow error={formError} busy={mutation.busy || !hydrated} label={submitLabel} />
      <Toast toast={toast} />
    </form>
  );
}
