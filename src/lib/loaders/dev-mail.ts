/**
 * What the local mail viewer renders (local builds only): what the dev outbox kept instead of
 * sending, newest first, optionally to one address (`?to=`).
 */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { normalizeEmail } from '../domain/validation.ts';
import { keepPrivate } from '../edge/page-request.ts';
import { OUTBOX_PAGE, outboxFor } from '../services/messages/providers/dev-outbox.ts';
import { PageExit } from './page-exit.ts';

/** Longer than any email or phone we accept (api/params.ts). */
const MAX_TARGET = 260;

export async function loadDevMail(astro: AstroGlobal) {
  // Local builds only: a deployed worker has no such page.
  if (env.APP_ENV !== 'local') return PageExit.notFound;

  const asked = (astro.url.searchParams.get('to') ?? '').trim().slice(0, MAX_TARGET);
  const target = asked === '' ? undefined : asked.includes('@') ? normalizeEmail(asked) : asked;
  const entries = await outboxFor(astro.locals.db, target);
  keepPrivate(astro);
  return {
    MAX_TARGET,
    OUTBOX_PAGE,
    asked,
    entries,
    target,
  };
}
