/**
 * The account field rules of SPEC.md section 5, shared by the login page (checked as the user
 * submits) and the API (checked again on every request). Each rule answers with the error code of
 * the problem, which is also the catalogue key `error.{code}` of its message, or null when fine.
 */
import { EMAIL_CODE_LENGTH, NICKNAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../config/accounts.ts';
import { TAKER_NAME_MAX_LENGTH } from '../config/orders.ts';
import { hasControlCharacter } from './text.ts';

export type FieldProblem =
  | 'phone_required'
  | 'phone_invalid'
  | 'country_code_invalid'
  | 'email_required'
  | 'email_invalid'
  | 'password_required'
  | 'new_password_required'
  | 'password_invalid'
  | 'code_required'
  | 'code_invalid'
  | 'captcha_required'
  | 'nickname_required'
  | 'nickname_invalid'
  | 'agreement_required';

/** The longest address mail systems accept (RFC 5321). */
export const EMAIL_MAX_LENGTH = 254;

/** Local part, @, domain labels, and a suffix of 2 to 6 letters. */
const EMAIL_PATTERN = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,6}$/;
/** An optional dash-separated prefix (a calling or area code), then 7 to 11 digits. */
const PHONE_PATTERN = /^(?:(\d{1,4})-)?(\d{7,11})$/;
const CALLING_CODE_PATTERN = /^\+\d{1,4}$/;
const CODE_PATTERN = new RegExp(`^\\d{${EMAIL_CODE_LENGTH}}$`);
const HAS_LETTER = /[A-Za-z]/;
const HAS_DIGIT = /\d/;
/** Problem with an email address, or null. Surrounding spaces are ignored. */
export function emailProblem(value: string): FieldProblem | null {
  const email = value.trim();
  if (email === '') return 'email_required';
  if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) return 'email_invalid';
  return null;
}

/** Problem with a phone number (without its country calling code), or null. */
export function phoneProblem(value: string): FieldProblem | null {
  const phone = value.trim();
  if (phone === '') return 'phone_required';
  return PHONE_PATTERN.test(phone) ? null : 'phone_invalid';
}

/** Problem with a country calling code such as "+852", or null. */
export function callingCodeProblem(value: string): FieldProblem | null {
  return CALLING_CODE_PATTERN.test(value) ? null : 'country_code_invalid';
}

/** Problem with a password: 8 to 32 characters with a letter and a digit. `isNew` picks the empty message. */
export function passwordProblem(value: string, isNew = false): FieldProblem | null {
  if (value === '') return isNew ? 'new_password_required' : 'password_required';
  const length = [...value].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) return 'password_invalid';
  if (!HAS_LETTER.test(value) || !HAS_DIGIT.test(value) || hasControlCharacter(value)) return 'password_invalid';
  return null;
}

/** Problem with a verification code (6 digits), or null. */
export function codeProblem(value: string): FieldProblem | null {
  const code = value.trim();
  if (code === '') return 'code_required';
  return CODE_PATTERN.test(code) ? null : 'code_invalid';
}

/** Problem with a graphic captcha answer, or null: only emptiness is checked here, the server knows the answer. */
export function captchaProblem(value: string): FieldProblem | null {
  return value.trim() === '' ? 'captcha_required' : null;
}

/** Problem with a nickname: 1 to 30 visible characters after trimming. */
export function nicknameProblem(value: string): FieldProblem | null {
  const nickname = value.trim();
  if (nickname === '') return 'nickname_required';
  if ([...nickname].length > NICKNAME_MAX_LENGTH || hasControlCharacter(nickname)) return 'nickname_invalid';
  return null;
}

export interface PhoneNumber {
  /** "+852" */
  callingCode: string;
  /** Digits only, without the calling code. */
  number: string;
}

/**
 * One spelling per phone: surrounding spaces go, and a dash prefix equal to the chosen calling code
 * ("852-91234567" with +852) is dropped. Any other prefix is an area code and stays, joined by a dash.
 */
export function normalizePhone(callingCode: string, value: string): PhoneNumber {
  const match = PHONE_PATTERN.exec(value.trim());
  if (!match) return { callingCode, number: value.trim() };
  const [, prefix, digits] = match;
  const number = prefix && prefix !== callingCode.slice(1) ? `${prefix}-${digits}` : digits;
  return { callingCode, number };
}

/** The lowercase form of an email, so one mailbox is one account. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** Letters of any script with their marks, and what joins a name's parts: spaces, apostrophes, hyphens, dots. */
const NAME_CHARACTERS = /^[\p{L}\p{M} '’.\-·・]+$/u;
/** A dot inside a word ("evil.com"): an initial's dot is followed by a space or ends the name ("J. Chan"). */
const DOT_INSIDE_WORD = /\.(?=\S)/;

/**
 * Problem with the name of the person who collects a pickup order, or null. The name goes out in
 * an SMS to a number the buyer chose, so it may hold a name and nothing else: no digits, no link,
 * no host name that a phone would make a link of.
 */
export function takerNameProblem(value: string): 'name_required' | 'name_invalid' | null {
  const name = value.trim();
  if (name === '') return 'name_required';
  if ([...name].length > TAKER_NAME_MAX_LENGTH || !NAME_CHARACTERS.test(name) || DOT_INSIDE_WORD.test(name)) return 'name_invalid';
  return null;
}

/**
 * Where to go after login: a same-site path from the `redirect` parameter, or null when it is
 * missing or points elsewhere (an absolute URL, a protocol-relative `//host`, a backslash trick).
 */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value || value.length > 2048) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\') || hasControlCharacter(value)) return null;
  return value;
}
