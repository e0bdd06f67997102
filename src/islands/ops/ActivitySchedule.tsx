/**
 * An activity's sessions and their ticket tiers on its console page: each one a small form saved on
 * its own (checked by the domain's rules first, then by the API), added, or removed while nobody has
 * ordered or listed it. Times are wall-clock times of the activity's city; face values are typed in
 * the currency's major units.
 */
import { type FormEvent, useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import type { MessageKey } from '../../lib/i18n/keys.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { Field, SubmitRow } from '../shared/fields.tsx';
import { useMutation } from '../shared/mutation.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { type FormValues, sessionDraftOf, sessionFormProblems, tierDraftOf, tierFormProblems } from './catalogue-forms.ts';
import { CheckField, problemTexts } from './RecordForm.tsx';
import { useHydrated } from '../shared/hydration.ts';
import './ops-forms.css';

export interface TierState {
  id: number | null;
  values: FormValues;
  sold: number;
}

export interface SessionState {
  id: number | null;
  values: FormValues;
  ordered: number;
  tiers: TierState[];
}

interface Props {
  activityId: number;
  timeZone: string;
  sessions: SessionState[];
  blankSession: FormValues;
  blankTier: FormValues;
  currencies: { code: string; minorDigits: number }[];
  messages: Messages;
}

type Change = () => Promise<unknown>;

/** Saving or removing one session or tier; the page is shown again with what the server kept. */
function useChange(messages: Messages, onFailure: (field: string, text: string) => void) {
  return useMutation<Change>({
    messages,
    call: (change) => change(),
    busyAfterSuccess: true,
    onSuccess: () => window.location.reload(),
    onFailure: (failure) => onFailure(failure.field ?? '', failure.text),
  });
}

function RemoveButton({ label, confirm, busy, onRemove }: { label: string; confirm: string; busy: boolean; onRemove: () => void }) {
  return (
    <button type="button" className="ops-button" disabled={busy} onClick={() => window.confirm(confirm) && onRemove()}>
      {label}
    </button>
  );
}

function TierForm({
  sessionId,
  tier,
  currencies,
  messages,
}: {
  sessionId: number;
  tier: TierState;
  currencies: Props['currencies'];
  messages: Messages;
}) {
  const [values, setValues] = useState(tier.values);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useChange(messages, (field, text) => setErrors({ [field]: text }));
  const hydrated = useHydrated();
  const t = (key: string) => format(messages, `opsCatalogue.${key}` as MessageKey);
  const prefix = `tier-${sessionId}-${tier.id ?? 'new'}`;
  const field = (name: string, label: string) => ({
    id: `${prefix}-${name.replace('.', '-')}`,
    label,
    value: values[name] ?? '',
    error: errors[name],
    onValue: (value: string) => setValues((current) => ({ ...current, [name]: value })),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const draft = tierDraftOf(values, new Map(currencies.map((currency) => [currency.code, currency.minorDigits])));
    const problems = tierFormProblems(
      draft,
      currencies.map((currency) => currency.code),
      tier.sold,
    );
    setErrors(problemTexts(problems, messages));
    if (problems.length > 0) return;
    const param = { id: String(tier.id ?? sessionId) };
    void mutation.run(() =>
      tier.id === null
        ? unwrap(api.v1.operator.sessions[':id'].tiers.$post({ param, json: draft }))
        : unwrap(api.v1.operator.tiers[':id'].$patch({ param, json: draft })),
    );
  }

  const known = new Set(['names.en', 'names.zhHant', 'names.zhHans', 'faceValue', 'currency', 'quota']);
  const other = Object.entries(errors).find(([name]) => !known.has(name))?.[1];
  return (
    <form className="ops-form ops-tier" onSubmit={submit} noValidate>
      <Field {...field('names.en', t('field.nameEn'))} />
      <Field {...field('names.zhHant', t('field.nameZhHant'))} />
      <Field {...field('names.zhHans', t('field.nameZhHans'))} />
      <Field {...field('faceValue', t('field.faceValue'))} inputMode="decimal" />
      <SelectField {...field('currency', t('field.currency'))} options={currencies.map(({ code }) => ({ code }))} />
      <Field {...field('quota', t('field.quota'))} inputMode="numeric" />
      {tier.sold > 0 && <p className="ops-note">{format(messages, 'opsCatalogue.sold', { count: tier.sold })}</p>}
      <SubmitRow error={other} busy={mutation.busy || !hydrated} label={tier.id === null ? t('addTier') : t('save')} />
      {tier.id !== null && (
        <RemoveButton
          label={t('remove')}
          confirm={t('removeConfirm')}
          busy={mutation.busy || !hydrated}
          onRemove={() => void mutation.run(() => unwrap(api.v1.operator.tiers[':id'].$delete({ param: { id: String(tier.id) } })))}
        />
      )}
    </form>
  );
}

function SessionForm({
  activityId,
  session,
  timeZone,
  messages,
}: {
  activityId: number;
  session: SessionState;
  timeZone: string;
  messages: Messages;
}) {
  const [values, setValues] = useState(session.values);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useChange(messages, (field, text) => setErrors({ [field]: text }));
  const hydrated = useHydrated();
  const t = (key: string) => format(messages, `opsCatalogue.${key}` as MessageKey);
  const prefix = `session-${session.id ?? 'new'}`;
  const field = (name: string, label: string) => ({
    id: `${prefix}-${name}`,
    label,
    value: values[name] ?? '',
    error: errors[name],
    onValue: (value: string) => setValues((current) => ({ ...current, [name]: value })),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const draft = sessionDraftOf(values, timeZone);
    const problems = sessionFormProblems(draft);
    setErrors(problemTexts(problems, messages));
    if (problems.length > 0) return;
    void mutation.run(() =>
      session.id === null
        ? unwrap(api.v1.operator.activities[':id'].sessions.$post({ param: { id: String(activityId) }, json: draft }))
        : unwrap(api.v1.operator.sessions[':id'].$patch({ param: { id: String(session.id) }, json: draft })),
    );
  }

  const known = new Set(['startsAt', 'endsAt', 'onSaleAt', 'offSaleAt', 'accountTicketCap', 'highDemand']);
  const other = Object.entries(errors).find(([name]) => !known.has(name))?.[1];
  return (
    <form className="ops-form" onSubmit={submit} noValidate>
      <Field {...field('startsAt', t('field.startsAt'))} type="datetime-local" />
      <Field {...field('endsAt', t('field.endsAt'))} type="datetime-local" />
      <Field {...field('onSaleAt', t('field.onSaleAt'))} type="datetime-local" />
      <Field {...field('offSaleAt', t('field.offSaleAt'))} type="datetime-local" />
      <Field {...field('accountTicketCap', t('field.accountCap'))} inputMode="numeric" />
      <CheckField
        id={`${prefix}-highDemand`}
        label={t('field.highDemand')}
        checked={values.highDemand === 'true'}
        onChecked={(checked) => setValues((current) => ({ ...current, highDemand: String(checked) }))}
      />
      {errors.highDemand && <p className="auth-error">{errors.highDemand}</p>}
      <SubmitRow error={other} busy={mutation.busy || !hydrated} label={session.id === null ? t('addSession') : t('save')} />
      {session.id !== null && (
        <RemoveButton
          label={t('remove')}
          confirm={t('removeConfirm')}
          busy={mutation.busy || !hydrated}
          onRemove={() => void mutation.run(() => unwrap(api.v1.operator.sessions[':id'].$delete({ param: { id: String(session.id) } })))}
        />
      )}
    </form>
  );
}

export default function ActivitySchedule({ activityId, timeZone, sessions, blankSession, blankTier, currencies, messages }: Props) {
  const t = (key: string) => format(messages, `opsCatalogue.${key}` as MessageKey);
  return (
    <div className="ops-schedule">
      <p className="ops-note">{format(messages, 'opsCatalogue.timesIn', { zone: timeZone })}</p>
      {sessions.map((session, index) => (
        <section key={session.id} className="ops-session" aria-labelledby={`session-heading-${session.id}`}>
          <h3 id={`session-heading-${session.id}`}>
            {t('sessions')} {index + 1}
          </h3>
          <SessionForm activityId={activityId} session={session} timeZone={timeZone} messages={messages} />
          <h4>{t('tiers')}</h4>
          {session.tiers.map((tier) => (
            <TierForm key={tier.id} sessionId={session.id!} tier={tier} currencies={currencies} messages={messages} />
          ))}
          <TierForm sessionId={session.id!} tier={{ id: null, values: blankTier, sold: 0 }} currencies={currencies} messages={messages} />
        </section>
      ))}
      <section className="ops-session" aria-labelledby="session-heading-new">
        <h3 id="session-heading-new">{t('addSession')}</h3>
        <SessionForm
          activityId={activityId}
          session={{ id: null, values: blankSession, ordered: 0, tiers: [] }}
          timeZone={timeZone}
          messages={messages}
        />
      </section>
    </div>
  );
}
