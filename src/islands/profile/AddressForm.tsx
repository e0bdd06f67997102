/** The address form (create and edit): checked like the API checks it, areas from a list where one exists. */
import { useEffect, useState, type FormEvent } from 'react';
import { api, callOptions, unwrap } from '../../lib/api/client.ts';
import {
  addressProblem,
  AREA_MAX_LENGTH,
  normalizeAddress,
  POSTCODE_MAX_LENGTH,
  STREET_MAX_LENGTH,
  type AddressInput,
} from '../../lib/domain/address.ts';
import { isCountryCode, type Country } from '../../lib/domain/countries.ts';
import type { RegionChoice, RegionLevel } from '../../lib/domain/regions.ts';
import { format, scoped, type Messages } from '../../lib/i18n/messages.ts';
import { Field } from '../shared/fields.tsx';
import { useHydrated } from '../shared/hydration.ts';
import { SelectField } from '../shared/SelectField.tsx';
import { Toast, useToast } from '../shared/toast.tsx';
import { useSaveRecord } from './save.ts';
import './profile.css';

interface Props {
  messages: Messages;
  countries: Country[];
  /** The address being edited, or the blank form's defaults. */
  initial: AddressInput;
  id?: number;
  /** The area list of the initial country (null: free text). */
  initialRegions: RegionChoice | null;
  /** Where to go once saved. */
  doneHref: string;
}

const AREA_FIELDS: RegionLevel[] = ['province', 'city', 'district'];

export default function AddressForm({ messages, countries, initial, id, initialRegions, doneHref }: Props) {
  const t = scoped(messages, 'profile.');
  const [address, setAddress] = useState<AddressInput>(initial);
  const [regions, setRegions] = useState<RegionChoice | null>(initialRegions);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [toast, showToast] = useToast();
  const hydrated = useHydrated();
  const saving = useSaveRecord({
    save: (json: AddressInput) => {
      if (!id) return unwrap(api.v1.addresses.$post({ json }));
      const update = { param: { id: String(id) }, json };
      return unwrap(api.v1.addresses[':id'].$put(update));
    },
    messages,
    savedKey: 'profile.address.saved',
    doneHref,
    setErrors,
    showToast,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: regions depend on the chosen country only; the initial ones are the page's and never change.
  useEffect(() => {
    if (address.countryCode === initial.countryCode) return setRegions(initialRegions);
    if (!address.countryCode) return setRegions(null);
    const controller = new AbortController();
    unwrap(api.v1.regions[':country'].$get({ param: { country: address.countryCode } }, callOptions({ signal: controller.signal })))
      .then(setRegions)
      .catch(() => setRegions(null));
    return () => controller.abort();
  }, [address.countryCode]);

  function change(field: keyof AddressInput, value: string) {
    setAddress((current) =>
      field === 'countryCode' ? { ...current, countryCode: value, province: '', city: '', district: '' } : { ...current, [field]: value },
    );
    setErrors({});
  }

  function save(event: FormEvent) {
    event.preventDefault();
    const normalized = normalizeAddress(address);
    const issue = addressProblem(normalized, isCountryCode);
    if (issue) {
      setErrors({ [issue.field]: format(messages, `error.${issue.problem}`) });
      return document.getElementById(`address-${issue.field}`)?.focus();
    }
    void saving.run(normalized);
  }

  // Levels above the selectable one mean nothing there (a Hong Kong district has no province or city).
  const shownAreas = regions ? AREA_FIELDS.slice(AREA_FIELDS.indexOf(regions.level)) : AREA_FIELDS;

  const text = (field: 'name' | 'street' | 'postcode' | RegionLevel, maxLength: number, autoComplete: string) => (
    <Field
      id={`address-${field}`}
      label={t(`address.${field}`)}
      placeholder={t(`address.${field}Prompt`)}
      value={address[field]}
      maxLength={maxLength}
      autoComplete={autoComplete}
      error={errors[field]}
      onValue={(value) => change(field, value)}
    />
  );

  return (
    <form className="auth-form" method="post" noValidate onSubmit={save}>
      <fieldset className="auth-fieldset" disabled={!hydrated}>
        {text('name', 50, 'name')}
        <div className="profile-phone">
          <Field
            id="address-phoneCountryCode"
            label={t('address.phoneCountryCode')}
            value={address.phoneCountryCode}
            maxLength={5}
            inputMode="tel"
            autoComplete="tel-country-code"
            error={errors.phoneCountryCode}
            onValue={(value) => change('phoneCountryCode', value)}
          />
          <Field
            id="address-phone"
            label={t('address.phone')}
            placeholder={t('address.phonePrompt')}
            value={address.phone}
            maxLength={20}
            inputMode="tel"
            autoComplete="tel-national"
            error={errors.phone}
            onValue={(value) => change('phone', value)}
          />
        </div>
        <SelectField
          id="address-countryCode"
          label={t('address.country')}
          prompt={t('address.countryPrompt')}
          value={address.countryCode}
          options={countries}
          error={errors.countryCode}
          onChange={(value) => change('countryCode', value)}
        />
        {shownAreas.map((field) =>
          regions?.level === field ? (
            <SelectField
              key={field}
              id={`address-${field}`}
              label={t(`address.${field}`)}
              prompt={t(`address.${field}Select`)}
              value={address[field]}
              options={regions.options}
              error={errors[field]}
              onChange={(value) => change(field, value)}
            />
          ) : (
            <div key={field}>
              {text(
                field,
                AREA_MAX_LENGTH,
                field === 'city' ? 'address-level2' : field === 'province' ? 'address-level1' : 'address-level3',
              )}
            </div>
          ),
        )}
        {text('street', STREET_MAX_LENGTH, 'street-address')}
        {text('postcode', POSTCODE_MAX_LENGTH, 'postal-code')}
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
