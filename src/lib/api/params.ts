/**
 * The zod atoms every route shares, so one rule has one definition: ids, amounts, codes, pages,
 * texts. A route composes its bodies and queries from these (and its own one-off fields).
 */
import { z } from 'zod';
import { TURNSTILE_TOKEN_MAX_LENGTH } from '../config/accounts.ts';
import { MAX_ID } from '../config/request.ts';
import { codeProblem, type FieldProblem } from '../domain/validation.ts';

/** An id in a JSON body (a number). */
export const bodyId = z.number().int().positive().max(MAX_ID);

/** An id in a query string (text that reads as a number). */
export const queryId = z.coerce.number().int().positive().max(MAX_ID);

/** The digits of an id in a path: no sign, no leading zero. */
const pathId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(z.number().max(MAX_ID));

/** The `:id` path parameter. */
export const idParam = z.object({ id: pathId });

/** Path parameters that are all ids, e.g. `idParams('id', 'userId')` for `/sessions/:id/staff/:userId`. */
export function idParams<K extends string>(...names: K[]) {
  return z.object(Object.fromEntries(names.map((name) => [name, pathId])) as Record<K, typeof pathId>);
}

/**
 * An amount of money in minor units of its currency (cents, or whole yen). Any whole amount: a
 * negative or absurd one is refused by the rule of the service that reads it, with its own message.
 */
export const minorAmount = z.number().int();

/** An ISO 4217 currency code, upper case. */
export const currencyCode = z.string().regex(/^[A-Z]{3}$/);

/** An ISO 3166 country code, upper case. */
export const countryCode = z.string().regex(/^[A-Z]{2}$/);

/** A phone's calling code as the forms send it, e.g. "+852". */
export const phoneCountryCode = z.string().regex(/^\+\d{1,4}$/);

/** A page number of a paged list, from 1; the first page when absent. */
export const pageNumber = z.coerce.number().int().min(1).max(10_000).default(1);

/** A moment as milliseconds since the epoch (a body's time field). */
export const epochMs = z.number().int().positive();

/** A form text of at most `max` characters, empty when absent (the service's rule names an empty required one). */
export const formText = (max: number) => z.string().max(max).default('');

/** A friend's invite code, as the share link carries it. */
export const inviteCode = z.string().max(32);

/** An account as a person types it: an email or a phone with its calling code. */
export const accountText = z.string().min(1).max(260);

/** The Idempotency-Key header of a retryable write (DESIGN.md). */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{8,64}$/;

/** The token of a solved Turnstile challenge, when the page showed one; the service decides whether the step needs it. */
export const turnstileToken = z.string().max(TURNSTILE_TOKEN_MAX_LENGTH).optional();

type Rule = (value: string) => FieldProblem | null;

/**
 * A text field checked by one of the pages' rules: a missing field is an empty one (so it gets the
 * rule's "cannot be empty" message, see validate.ts's field problems), anything but a string is
 * invalid input. Passwords keep their spaces; everything else is trimmed.
 */
export function ruled(rule: Rule, trim = true) {
  return z.unknown().transform((value, ctx) => {
    if (value !== undefined && value !== null && typeof value !== 'string') {
      ctx.addIssue({ code: 'custom', message: 'invalid_input' });
      return z.NEVER;
    }
    const text = value ?? '';
    const problem = rule(text);
    if (problem) {
      ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    }
    return trim ? text.trim() : text;
  });
}

/** A verification code as a person types it. */
export const verificationCode = ruled(codeProblem);
