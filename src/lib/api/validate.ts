/** zod at the edge: parse or throw the envelope's invalid_input error naming the field. */
import type { z } from 'zod';
import { cleanText } from '../domain/text.ts';
import { ApiError } from './errors.ts';

/**
 * Every text of an input, well-formed and NFC-normalised before any schema sees it: a lone UTF-16
 * surrogate (which JSON can carry as an escape) is a 400 on its field, never a broken row.
 */
export function cleanInput(value: unknown): unknown {
  const result = cleanText(value);
  if (result.ok) return result.value;
  const field = result.path.join('.') || 'body';
  throw new ApiError(400, 'text_malformed', { field }, field);
}

export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(cleanInput(value));
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join('.') || undefined;
  throw new ApiError(400, 'invalid_input', { field: field ?? '' }, field);
}

/** The JSON body of a request; a body that is not JSON is an invalid_input error on `body`. */
export async function jsonBody(request: Request): Promise<unknown> {
  return request.json().catch(() => {
    throw new ApiError(400, 'invalid_input', { field: 'body' }, 'body');
  });
}
