/**
 * zod at the edge: every input cleaned, parsed, or refused with the envelope's invalid_input error
 * naming the field. Routes validate through the `input` middleware; its schema is also what the
 * OpenAPI document (docs.ts) describes.
 */
import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import { resolver, uniqueSymbol, type validator } from 'hono-openapi';
import type { z } from 'zod';
import { HEADER, MAX_JSON_DEPTH, MAX_JSON_KEYS } from '../config/request.ts';
import { DomainError, type ErrorCode } from '../domain/errors.ts';
import { jsonWithinLimits } from '../domain/json-shape.ts';
import { cleanText } from '../domain/text.ts';
import type { FieldProblem } from '../domain/validation.ts';
import type { ApiEnv } from './context.ts';
import { IDEMPOTENCY_KEY } from './params.ts';

/**
 * Every text of an input, well-formed and NFC-normalised before any schema sees it: a lone UTF-16
 * surrogate (which JSON can carry as an escape) is a 400 on its field, never a broken row.
 */
export function cleanInput(value: unknown): unknown {
  const result = cleanText(value);
  if (result.ok) return result.value;
  const field = result.path.join('.') || 'body';
  throw new DomainError('text_malformed', { field }, field);
}

/**
 * The form rules' own problems (domain/validation.ts): a schema that checks a field with one of them
 * names it as the issue's message, and the answer is that error (with the page's message) on the field.
 */
const FIELD_PROBLEMS = new Set<string>([
  'phone_required',
  'phone_invalid',
  'country_code_invalid',
  'email_required',
  'email_invalid',
  'password_required',
  'new_password_required',
  'password_invalid',
  'code_required',
  'code_invalid',
  'nickname_required',
  'nickname_invalid',
  'agreement_required',
] satisfies FieldProblem[]);

/** The input parsed by the schema after cleanInput; the first problem becomes the envelope's error, naming its field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(cleanInput(value));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  if (issue && FIELD_PROBLEMS.has(issue.message)) throw new DomainError(issue.message as ErrorCode, {}, field);
  throw new DomainError('invalid_input', { field: field ?? '' }, field);
}

/**
 * The JSON body of a request, whatever its content type; a body that is not JSON, or nests deeper or
 * holds more keys than any route takes (measured before anything walks it), is an invalid_input error
 * on `body`. Anything else (the body limit, say) keeps its own answer.
 */
export async function jsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (!jsonWithinLimits(text, { maxDepth: MAX_JSON_DEPTH, maxKeys: MAX_JSON_KEYS })) throw invalidBody();
  try {
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof SyntaxError) throw invalidBody();
    throw error;
  }
}

const invalidBody = () => new DomainError('invalid_input', { field: 'body' }, 'body');

type InputTarget = 'json' | 'query' | 'param';

/** The same middleware type as hono-openapi's validator, so that handlers and hono/client see the typed input. */
type Validated<S extends z.ZodType, T extends InputTarget, P extends string> = ReturnType<typeof validator<S, T, ApiEnv, P>>;

/**
 * Validates one part of the request (`c.req.valid(target)` in the handler) and records its schema for
 * the OpenAPI document. Not hono-openapi's own `validator`: Hono's JSON reading skips a body without a
 * JSON content type and answers a malformed one with its own 400, and no hook runs before the schema
 * to clean the texts; this reads the body as the API always has and answers with our envelope.
 */
export function input<T extends InputTarget, S extends z.ZodType, P extends string = string>(target: T, schema: S): Validated<S, T, P> {
  const middleware: MiddlewareHandler<ApiEnv> = async (c, next) => {
    const raw = target === 'json' ? await jsonBody(c.req.raw) : target === 'query' ? c.req.query() : c.req.param();
    c.req.addValidatedData(target, parseInput(schema, raw) as object);
    await next();
  };
  return Object.assign(middleware, { [uniqueSymbol]: { target, ...resolver(schema) } }) as unknown as Validated<S, T, P>;
}

/** The Idempotency-Key of a retryable write (DESIGN.md), as `c.var.idempotencyKey`; required, so a retry can never double up. */
export const idempotent = createMiddleware<ApiEnv & { Variables: { idempotencyKey: string } }>(async (c, next) => {
  const key = c.req.header(HEADER.idempotencyKey);
  if (!key || !IDEMPOTENCY_KEY.test(key)) throw new DomainError('idempotency_key_required');
  c.set('idempotencyKey', key);
  await next();
});
