/** The id schemas every route shares: a positive integer up to MAX_ID. */
import { z } from 'zod';
import { MAX_ID } from '../config.ts';

/** An id in a JSON body (a number). */
export const bodyId = z.number().int().positive().max(MAX_ID);

/** An id in a query string (text that reads as a number). */
export const queryId = z.coerce.number().int().positive().max(MAX_ID);

/** The `:id` path parameter: digits only, no sign, no leading zero. */
export const idParam = z.object({ id: z.string().regex(/^[1-9]\d{0,9}$/).transform(Number).pipe(z.number().max(MAX_ID)) });
