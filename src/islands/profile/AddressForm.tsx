/** The address form (create and edit): checked like the API checks it, areas from a list where one exists. */
import { useEffect, useState } from 'react';
import { api, callOptions, unwrap } from '../../lib/browser/api-client.ts';
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
import { scoped, type Messages } from '../../lib/i18n/messages.ts';
import { bindFields, Field, PhoneFields, SubmitRow } from '../shared/fields.tsx';
import { SelectField } from '../shared/SelectField.tsx';
import { Toast } from '../shared/toast.tsx';
import { useRecordForm } from './save.ts';
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
  const { errors, setErrors, toast, hydrated, busy, submit } = useRecordForm({
    id,
    create: (call: { json: AddressInput }) => unwrap(api.v1.addresses.$post(call)),
    update: (call) => unwrap(api.v1.addresses[':id'].$put(call)),
    problem: (input) => addressProblem(input, isCountryCode),
    prefix: 'address',
    messages,
    savedKey: 'profile.address.saved',
    doneHref,
  });
  const field = bindFields('address', address, errors, change);

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

  // Levels above the selectable one mean nothing there (a Hong Kong district has no province or city).
  const shownAreas = regions ? AREA_FIELDS.slice(AREA_FIELDS.indexOf(regions.level)) : AREA_FIELDS;

  const text = (name: 'name' | 'street' | 'postcode' | RegionLevel, maxLength: number, autoComplete: string) => (
    <Field
      {...field(name)}
      label={t(`address.${name}`)}
      placeholder={t(`address.${name}Prompt`)}
      maxLength={maxLength}
      autoComplete={autoComplete}
    />
  );

  return (
    <form className="auth-form" method="post" noValidate onSubmit={(event) => submit(event, normalizeAddress(address))}>
      <fieldset className="auth-fieldset" disabled={!hydrated}>
        {text('name', 50, 'name')}
        <PhoneFields
          className="profile-phone"
          code={{ ...field('phoneCountryCode'), label: t('address.phoneCountryCode') }}
          phone={{ ...field('phone'), label: t('address.phone'), placeholder: t('address.phonePrompt') }}
        />
        <SelectField {...field('countryCode')} label={t('address.country')} prompt={t('address.countryPrompt')} options={countries} />
        {shownAreas.map((area) =>
          regions?.level === area ? (
            <SelectField
              key={area}
              {...field(area)}
              label={t(`address.${area}`)}
              prompt={t(`address.${area}Select`)}
              options={regions.options}
            />
          ) : (
            <div key={area}>
              {text(area, AREA_MAX_LENGTH, area === 'city' ? 'address-level2' : area === 'province' ? 'address-level1' : 'address-level3')}
            </div>
          ),
        )}
        {text('street', STREET_MAX_LENGTH, 'street-address')}
        {text('postcode', POSTCODE_MAX_LENGTH, 'postal-code')}
        <SubmitRow error={errors.form} busy={busy} label={t('save')} />
      </fieldset>
      <Toast toast={toast} />
    </form>
  );
}
