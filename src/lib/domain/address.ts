/**
 * The address form's rules (SPEC.md sections 3 and 5), shared by the form and the API: every field
 * answers with the error code of its first problem, also the catalogue key `error.{code}`.
 */
import { callingCodeProblem, phoneProblem, safeRedirect } from './validation.ts';
import { NAME_MAX_LENGTH, type FieldIssue } from './identity.ts';
import { isSelectableRegion, selectableLevel } from './regions.ts';
import { hasControlCharacter } from './text.ts';

export type AddressProblem =
  | 'required_info_empty'
  | 'name_required'
  | 'name_invalid'
  | 'phone_required'
  | 'phone_malformed'
  | 'country_code_invalid'
  | 'country_required'
  | 'area_required'
  | 'street_required'
  | 'postcode_invalid';

export interface AddressInput {
  name: string;
  phoneCountryCode: string;
  phone: string;
  countryCode: string;
  province: string;
  city: string;
  district: string;
  street: string;
  postcode: string;
}

/** Longer values are refused as invalid input by the API's schema (and cannot be typed in the form). */
export const STREET_MAX_LENGTH = 200;
export const AREA_MAX_LENGTH = 60;
export const POSTCODE_MAX_LENGTH = 12;
const POSTCODE = /^[A-Za-z0-9][A-Za-z0-9 -]{1,11}$/;
/** Trims every field, so " Wan Chai " and "Wan Chai" are one address. */
export function normalizeAddress(input: AddressInput): AddressInput {
  return Object.fromEntries(Object.entries(input).map(([key, value]) => [key, value.trim()])) as unknown as AddressInput;
}

/** The first problem of an (already normalized) address, or null. `isCountry` says whether a code is known. */
export function addressProblem(input: AddressInput, isCountry: (code: string) => boolean): FieldIssue<AddressProblem> | null {
  const { name, phone, countryCode, street } = input;
  if (name === '' && phone === '' && street === '') return { field: 'name', problem: 'required_info_empty' };
  if (name === '') return { field: 'name', problem: 'name_required' };
  if ([...name].length > NAME_MAX_LENGTH || hasControlCharacter(name)) return { field: 'name', problem: 'name_invalid' };
  if (callingCodeProblem(input.phoneCountryCode)) return { field: 'phoneCountryCode', problem: 'country_code_invalid' };
  const phoneIssue = phoneProblem(phone);
  if (phoneIssue) return { field: 'phone', problem: phoneIssue === 'phone_required' ? 'phone_required' : 'phone_malformed' };
  if (!isCountry(countryCode)) return { field: 'countryCode', problem: 'country_required' };
  const level = selectableLevel(countryCode);
  if (level && (input[level] === '' || !isSelectableRegion(countryCode, input[level]))) return { field: level, problem: 'area_required' };
  if (street === '') return { field: 'street', problem: 'street_required' };
  if (input.postcode !== '' && !POSTCODE.test(input.postcode)) return { field: 'postcode', problem: 'postcode_invalid' };
  return null;
}

/**
 * Where a "Use this" choice goes: the same-site `return` path (anything else is refused: null) with the
 * chosen ids added to its query, replacing earlier ones.
 */
export function returnWithChoice(returnPath: string | null | undefined, params: Record<string, string>): string | null {
  const path = safeRedirect(returnPath);
  if (!path) return null;
  const url = new URL(path, 'http://same.site');
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return `${url.pathname}${url.search}${url.hash}`;
}
