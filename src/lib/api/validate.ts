/** zod at the edge: parse or throw the envelope's invalid_input error naming the field. */
import type { z } from 'zod';
import { ApiError } from './errors.ts';

export function parseInput<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
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
