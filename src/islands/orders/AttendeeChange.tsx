/**
 * The attendees of a real-name order that may still change: each with a Change button that opens
 * the new attendee's form (checked like the attendee form, the ID type following the nationality
 * at this venue), or the change waiting for the seller with a Withdraw button. A request sent or
 * withdrawn reloads the page, which then shows the order's requests as the server has them.
 */
import { useState, type FormEvent } from 'react';
import { api, callOptions, unwrap } from '../../lib/browser/api-client.ts';
import { isCountryCode, type Country } from '../../lib/domain/countries.ts';
import { attendeeProblem, idCardTypeFor, ID_CARD_TYPES, NAME_MAX_LENGTH, type AttendeeInput } from '../../lib/domain/identity.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import type { OrderAttendeeChoice } from '../../lib/services/orders/attendee-changes.ts';
import { bindFields, Field, SubmitRow } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { useMutation } from '../shared/mutation.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { Toast, useToast } from '../shared/toast.tsx';
import './orders.css';

interface Props {
  orderId: number;
  attendees: OrderAttendeeChoice[];
  countries: Country[];
  venueCountry: string;
  messages: Messages;
}

const EMPTY: AttendeeInput = { name: '', nationality: '', idCardType: '', idCardNo: '' };

type Action = { kind: 'ask'; orderAttendeeId: number; attendee: AttendeeInput } | { kind: 'withdraw'; requestId: number };

export default function AttendeeChange({ orderId, attendees, countries, venueCountry, messages: m }: Props) {
  const t = scoped(m, 'orders.change.');
  const hydrated = useHydrated();
  const [toast, showToast] = useToast();
  const [open, setOpen] = useState<number | null>(null);
  const [attendee, setAttendee] = useState<AttendeeInput>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});

  const action = useMutation<Action>({
    messages: m,
    call: (input, idempotencyKey) =>
      input.kind === 'ask'
        ? unwrap(
            api.v1.orders[':id']['attendee-changes'].$post(
              { param: { id: String(orderId) }, json: { orderAttendeeId: input.orderAttendeeId, ...input.attendee } },
              callOptions({ idempotencyKey }),
            ),
          )
        : unwrap(
            api.v1['attendee-changes'][':id'].withdraw.$post({ param: { id: String(input.requestId) } }, callOptions({ idempotencyKey })),
          ),
    busyAfterSuccess: true,
    onSuccess: () => location.reload(),
    onFailure: ({ text, field }, input) => {
      // An error on a field of the form stays on it; any other (the order, the ticket) under the form.
      if (input.kind === 'ask') setErrors({ [field !== null && field in EMPTY ? field : 'form']: text });
      else showToast({ tone: 'error', title: text });
    },
  });
  const field = bindFields('change', attendee, errors, change);

  function change(name: keyof AttendeeInput, value: string) {
    setAttendee((current) => {
      const next = { ...current, [name]: value };
      if (name === 'nationality' && value) next.idCardType = idCardTypeFor(venueCountry, value);
      return next;
    });
    setErrors({});
  }

  function start(id: number) {
    action.renewKey();
    setAttendee(EMPTY);
    setErrors({});
    setOpen(id);
  }

  function submit(event: FormEvent, orderAttendeeId: number) {
    event.preventDefault();
    const issue = attendeeProblem(attendee, isCountryCode);
    if (issue) {
      setErrors({ [issue.field]: format(m, `error.${issue.problem}`) });
      document.getElementById(`change-${issue.field}`)?.focus();
      return;
    }
    void action.run({ kind: 'ask', orderAttendeeId, attendee });
  }

  return (
    <>
      <ul className="attendee-changes">
        {attendees.map((person) => (
          <li key={person.id}>
            <span className="name">{person.name}</span>
            <span className="sub">
              {format(m, 'orders.detail.attendeeId', {
                type: format(m, `profile.attendee.type.${person.idCardType}`),
                number: person.idCardNoMasked,
              })}
              {person.ticketNo && ` · ${t('ticket', { ticketNo: person.ticketNo })}`}
            </span>
            {person.pending ? (
              <p className="attendee-change-pending">
                <span>{t('pending', { name: person.pending.to.name })}</span>
                <button
                  type="button"
                  className="orders-button"
                  disabled={!hydrated || action.busy}
                  aria-label={t('withdrawNamed', { name: person.pending.to.name })}
                  onClick={() => {
                    action.renewKey();
                    void action.run({ kind: 'withdraw', requestId: person.pending!.id });
                  }}
                >
                  {t('withdraw')}
                </button>
              </p>
            ) : !person.changeable ? (
              <p className="sub">{t('ticketUnavailable')}</p>
            ) : open === person.id ? (
              <form
                className="auth-form"
                noValidate
                onSubmit={(event) => submit(event, person.id)}
                aria-labelledby={`change-heading-${person.id}`}
              >
                <h3 id={`change-heading-${person.id}`}>{t('formHeading', { name: person.name })}</h3>
                <fieldset className="auth-fieldset" disabled={!hydrated}>
                  <NewAttendeeFields field={field} countries={countries} messages={m} />
                  <SubmitRow error={errors.form} busy={action.busy} label={t('submit')} />
                  <button type="button" className="orders-button" onClick={() => setOpen(null)}>
                    {t('cancel')}
                  </button>
                </fieldset>
              </form>
            ) : (
              <button
                type="button"
                className="orders-button"
                disabled={!hydrated}
                aria-label={t('askNamed', { name: person.name })}
                onClick={() => start(person.id)}
              >
                {t('ask')}
              </button>
            )}
          </li>
        ))}
      </ul>
      <Toast toast={toast} />
    </>
  );
}

interface NewAttendeeProps {
  field: ReturnType<typeof bindFields<AttendeeInput>>;
  countries: Country[];
  messages: Messages;
}

/** The new attendee's name, nationality, document type (the venue's rule picks it from the nationality) and number. */
function NewAttendeeFields({ field, countries, messages: m }: NewAttendeeProps) {
  const types = ID_CARD_TYPES.map((type) => ({ code: type, name: format(m, `profile.attendee.type.${type}`) }));
  return (
    <>
      <Field
        {...field('name')}
        label={format(m, 'profile.attendee.name')}
        placeholder={format(m, 'profile.attendee.namePrompt')}
        maxLength={NAME_MAX_LENGTH}
        autoComplete="off"
      />
      <SelectField
        {...field('nationality')}
        label={format(m, 'profile.attendee.nationality')}
        prompt={format(m, 'profile.attendee.nationalityPrompt')}
        options={countries}
      />
      <SelectField
        {...field('idCardType')}
        label={format(m, 'profile.attendee.idType')}
        prompt={format(m, 'profile.attendee.idTypePrompt')}
        options={types}
      />
      <p className="auth-hint">{format(m, 'profile.attendee.typeHint')}</p>
      <Field
        {...field('idCardNo')}
        label={format(m, 'profile.attendee.idNumber')}
        placeholder={format(m, 'profile.attendee.idNumberPrompt')}
        maxLength={40}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
      />
    </>
  );
}
