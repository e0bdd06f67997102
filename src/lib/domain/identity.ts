/**
 * Real-name attendees (SPEC.md sections 3 and 6): which document an attendee shows, the format and
 * check digit of each ID card, and the field rules of the attendee form, shared by the form and the API.
 */
import { hasControlCharacter } from './text.ts';

export type IdCardType = 'passport' | 'id_card';
export const ID_CARD_TYPES: readonly IdCardType[] = ['id_card', 'passport'];

export type AttendeeProblem =
  | 'required_info_empty'
  | 'name_required'
  | 'name_invalid'
  | 'nationality_required'
  | 'id_type_required'
  | 'id_number_required'
  | 'id_number_invalid';

export interface AttendeeInput {
  name: string;
  nationality: string;
  idCardType: string;
  idCardNo: string;
}

export interface FieldIssue<P extends string> {
  field: string;
  problem: P;
}

export const NAME_MAX_LENGTH = 50;

/**
 * An attendee shows an ID card in their own country and a passport anywhere else: the venue's
 * country against the attendee's nationality.
 */
export function idCardTypeFor(venueCountry: string, nationality: string): IdCardType {
  return venueCountry.toUpperCase() === nationality.toUpperCase() ? 'id_card' : 'passport';
}

/** One spelling per number: no surrounding or inner spaces, upper case. */
export function normalizeIdNumber(value: string): string {
  return value.replace(/\s+/g, '').toUpperCase();
}

const MAINLAND_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const MAINLAND_CHECK = '10X98765432';

/** Mainland resident ID: 18 characters, the last the ISO 7064 MOD 11-2 check (0-9 or X). */
export function isMainlandId(value: string): boolean {
  if (!/^\d{17}[\dX]$/.test(value)) return false;
  const sum = MAINLAND_WEIGHTS.reduce((total, weight, i) => total + weight * Number(value[i]), 0);
  return MAINLAND_CHECK[sum % 11] === value[17];
}

/** Hong Kong identity card: 1-2 letters, 6 digits, a check digit 0-9 or A, with or without parentheses. */
export function isHongKongId(value: string): boolean {
  const match = /^([A-Z]{1,2})(\d{6})(?:\(([\dA])\)|([\dA]))$/.exec(value);
  if (!match) return false;
  const [, letters, digits, bracketed, bare] = match;
  // A single letter is weighed as if preceded by a space, worth 36; letters are worth A=10 .. Z=35.
  const padded = letters.length === 1 ? [36, letters.charCodeAt(0) - 55] : [...letters].map((c) => c.charCodeAt(0) - 55);
  let sum = padded[0] * 9 + padded[1] * 8;
  [...digits].forEach((digit, i) => {
    sum += Number(digit) * (7 - i);
  });
  const remainder = (11 - (sum % 11)) % 11;
  const expected = remainder === 10 ? 'A' : String(remainder);
  return (bracketed ?? bare) === expected;
}

/** The numbers Taiwan gives each first letter (I, O, W... are out of order for historical reasons). */
const TAIWAN_LETTERS = 'ABCDEFGHJKLMNPQRSTUVXYWZIO';

/** Taiwan national ID (and the new resident certificate): a letter, 1/2/8/9, 8 digits, the last a checksum. */
export function isTaiwanId(value: string): boolean {
  if (!/^[A-Z][1289]\d{8}$/.test(value)) return false;
  const code = TAIWAN_LETTERS.indexOf(value[0]) + 10;
  let sum = Math.floor(code / 10) + (code % 10) * 9;
  for (let i = 1; i <= 8; i += 1) sum += Number(value[i]) * (9 - i);
  sum += Number(value[9]);
  return sum % 10 === 0;
}

/** Macao resident identity card: 8 digits, the last optionally in parentheses: 1234567(8) or 12345678. */
export function isMacaoId(value: string): boolean {
  return /^\d{7}(?:\(\d\)|\d)$/.test(value);
}

const GENERIC_DOCUMENT = /^[A-Z0-9]{5,20}$/;

/** Whether an (already normalized) number fits the document: ID cards by the issuing nationality. */
export function isValidIdNumber(type: IdCardType, nationality: string, value: string): boolean {
  if (type === 'passport') return GENERIC_DOCUMENT.test(value);
  switch (nationality) {
    case 'CN':
      return isMainlandId(value);
    case 'HK':
      return isHongKongId(value);
    case 'TW':
      return isTaiwanId(value);
    case 'MO':
      return isMacaoId(value);
    default:
      return GENERIC_DOCUMENT.test(value);
  }
}

/** What a list shows of an ID number: the first and last two characters. */
export function maskIdNumber(value: string): string {
  if (value.length <= 4) return '*'.repeat(value.length);
  return `${value.slice(0, 2)}${'*'.repeat(value.length - 4)}${value.slice(-2)}`;
}

/**
 * The first problem of an attendee form, or null. `isCountry` says whether a nationality is known.
 * A form with nothing filled in gets the one "required info" message rather than four.
 */
export function attendeeProblem(input: AttendeeInput, isCountry: (code: string) => boolean): FieldIssue<AttendeeProblem> | null {
  const name = input.name.trim();
  const idCardNo = normalizeIdNumber(input.idCardNo);
  if (name === '' && input.nationality === '' && idCardNo === '') return { field: 'name', problem: 'required_info_empty' };
  if (name === '') return { field: 'name', problem: 'name_required' };
  if ([...name].length > NAME_MAX_LENGTH || hasControlCharacter(name)) return { field: 'name', problem: 'name_invalid' };
  if (!isCountry(input.nationality)) return { field: 'nationality', problem: 'nationality_required' };
  if (!(ID_CARD_TYPES as readonly string[]).includes(input.idCardType)) return { field: 'idCardType', problem: 'id_type_required' };
  if (idCardNo === '') return { field: 'idCardNo', problem: 'id_number_required' };
  if (!isValidIdNumber(input.idCardType as IdCardType, input.nationality, idCardNo))
    return { field: 'idCardNo', problem: 'id_number_invalid' };
  return null;
}

/** Attendees an event needs and the user's progress: how many to add, how many remain to choose, or done. */
export type SelectionStatus = { key: 'toAdd' | 'remain' | 'complete'; count: number };

export function attendeeSelectionStatus(saved: number, chosen: number, need: number): SelectionStatus {
  if (saved < need) return { key: 'toAdd', count: need - saved };
  if (chosen < need) return { key: 'remain', count: need - chosen };
  return { key: 'complete', count: need };
}
