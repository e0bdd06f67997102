/**
 * A page about one thing (an order, a lottery, an address...) that is missing, malformed or someone
 * else's exits to the 404 page (page-exit.ts), which Astro renders in the request's language.
 */
import { statusOf } from '../api/errors.ts';
import { DomainError } from '../domain/errors.ts';
import { PageExit } from './page-exit.ts';

/** What `load` loads, or the 404 exit when the service says what it names is not found. */
export async function orNotFound<T>(load: Promise<T>): Promise<T | PageExit> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof DomainError && statusOf(error) === 404) return PageExit.notFound;
    throw error;
  }
}

const RECORD_ID = /^[1-9]\d{0,9}$/;

/**
 * The record a create-or-edit page edits: null without `?id=` (a new one), the 404 exit for an id
 * that is malformed or names no record of the user's.
 */
export async function editedRecord<T>(params: URLSearchParams, load: (id: number) => Promise<T>): Promise<T | null | PageExit> {
  const rawId = params.get('id');
  if (rawId === null) return null;
  if (!RECORD_ID.test(rawId)) return PageExit.notFound;
  return orNotFound(load(Number(rawId)));
}
