/** The real-name attendee form (create and edit), checked like the API checks it. */
import { useState } from 'react';
import { api, unwrap } from '../../lib/browser/api-client.ts';
import { isCountryCode, type Country } from '../../lib/domain/countries.ts';
import { attendeeProblem, idCardTypeFor, ID_CARD_TYPES, NAME_MAX_LENGTH, type AttendeeInput } from '../../lib/domain/identity.ts';
import { scoped, type Messages } from '../../lib/i18n/messages.ts';
import { bindFields, Field, SubmitRow } from '../shared/fields.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { Toast } from '../shared/toast.tsx';
import { useRecordForm } from './save.ts';

interface Props {
  messages: Messages;
  countries: Country[];
  initial: AttendeeInput;
  id?: number;
  /** The venue's country when the form is opened for an event: the ID type then follows the nationality. */
  venueCountry?: string;
  doneHref: string;
}

export default function AttendeeForm({ messages, countries, initial, id, venueCountry, doneHref }: Props) {
  const t = scoped(messages, 'profile.');
  const [attendee, setAttendee] = useState<AttendeeInput>(initial);
  const { errors, setErrors, toast, hydrated, busy, submit } = useRecordForm({
    id,
    create: (call: { json: AttendeeInput }) => unwrap(api.v1.attendees.$post(call)),
    update: (call) => unwrap(api.v1.attendees[':id'].$put(call)),
    problem: (input) => attendeeProblem(input, isCountryCode),
    prefix: 'attendee',
    messages,
    savedKey: 'profile.attendee.saved',
    doneHref,
  });
  const field = bindFields('attendee', attendee, errors, change);
  const types = ID_CARD_TYPES.map((type) => ({ code: type, name: t(`attendee.type.${type}`) }));

  function change(field: keyof AttendeeInput, value: string) {
    setAttendee((current) => {
      const next = { ...current, [field]: value };
      if (field === 'nationality' && venueCountry && value) next.idCardType = idCardTypeFor(venueCountry, value);
      return next;
    });
    setErrors({});
  }

  return (
    <form className="auth-form" method="post" noValidate onSubmit={(event) => submit(event, attendee)}>
      <fieldset className="auth-fieldset" disabled={!hydrated}>
        <Field
          {...field('name')}
          label={t('attendee.name')}
          placeholder={t('attendee.namePrompt')}
          maxLength={NAME_MAX_LENGTH}
          autoComplete="name"
        />
        <SelectField
          {...field('nationality')}
          label={t('attendee.nationality')}
          prompt={t('attendee.nationalityPrompt')}
          options={countries}
        />
        <SelectField {...field('idCardType')} label={t('attendee.idType')} prompt={t('attendee.idTypePrompt')} options={types} />
        {venueCountry && <p className="auth-hint">{t('attendee.typeHint')}</p>}
        <Field
          {...field('idCardNo')}
          label={t('attendee.idNumber')}
          placeholder={t('attendee.idNumberPrompt')}
          maxLength={40}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
        />
        <SubmitRow error={errors.form} busy={busy} label={t('save')} />
      </fieldset>
      <Toast toast={toast} />
    </form>
  );
}
