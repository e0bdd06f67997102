/** The real-name attendee form (create and edit), checked like the API checks it. */
import { useState, type FormEvent } from 'react';
import { api, unwrap } from '../../lib/api/client.ts';
import { isCountryCode, type Country } from '../../lib/domain/countries.ts';
import { attendeeProblem, idCardTypeFor, ID_CARD_TYPES, NAME_MAX_LENGTH, type AttendeeInput } from '../../lib/domain/identity.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { Field } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { Toast, useToast } from '../shared/toast.tsx';
import { useSaveRecord } from './save.ts';

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
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const saving = useSaveRecord({
    save: (json: AttendeeInput) => {
      if (!id) return unwrap(api.v1.attendees.$post({ json }));
      const update = { param: { id: String(id) }, json };
      return unwrap(api.v1.attendees[':id'].$put(update));
    },
    messages,
    savedKey: 'profile.attendee.saved',
    doneHref,
    setErrors,
    showToast,
  });
  const types = ID_CARD_TYPES.map((type) => ({ code: type, name: t(`attendee.type.${type}`) }));

  function change(field: keyof AttendeeInput, value: string) {
    setAttendee((current) => {
      const next = { ...current, [field]: value };
      if (field === 'nationality' && venueCountry && value) next.idCardType = idCardTypeFor(venueCountry, value);
      return next;
    });
    setErrors({});
  }

  function save(event: FormEvent) {
    event.preventDefault();
    const issue = attendeeProblem(attendee, isCountryCode);
    if (issue) {
      setErrors({ [issue.field]: format(messages, `error.${issue.problem}`) });
      return document.getElementById(`attendee-${issue.field}`)?.focus();
    }
    void saving.run(attendee);
  }

  return (
    <form className="auth-form" method="post" noValidate onSubmit={save}>
      <fieldset className="auth-fieldset" disabled={!hydrated}>
        <Field
          id="attendee-name"
          label={t('attendee.name')}
          placeholder={t('attendee.namePrompt')}
          value={attendee.name}
          maxLength={NAME_MAX_LENGTH}
          autoComplete="name"
          error={errors.name}
          onValue={(value) => change('name', value)}
        />
        <SelectField
          id="attendee-nationality"
          label={t('attendee.nationality')}
          prompt={t('attendee.nationalityPrompt')}
          value={attendee.nationality}
          options={countries}
          error={errors.nationality}
          onChange={(value) => change('nationality', value)}
        />
        <SelectField
          id="attendee-idCardType"
          label={t('attendee.idType')}
          prompt={t('attendee.idTypePrompt')}
          value={attendee.idCardType}
          options={types}
          error={errors.idCardType}
          onChange={(value) => change('idCardType', value)}
        />
        {venueCountry && <p className="auth-hint">{t('attendee.typeHint')}</p>}
        <Field
          id="attendee-idCardNo"
          label={t('attendee.idNumber')}
          placeholder={t('attendee.idNumberPrompt')}
          value={attendee.idCardNo}
          maxLength={40}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          error={errors.idCardNo}
          onValue={(value) => change('idCardNo', value)}
        />
        {errors.form && (
          <p className="auth-error" role="alert">
            {errors.form}
          </p>
        )}
        <button type="submit" className="auth-submit" disabled={saving.busy}>
          {t('save')}
        </button>
      </fieldset>
      <Toast toast={toast} />
    </form>
  );
}
