/**
 * What the attendee form renders (auth route): the attendee being edited (`?id=`) or a blank one,
 * and the way back to the list with its choosing parameters. An id that names no attendee of the
 * user's exits to the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { isCountryCode } from '../domain/countries.ts';
import type { AttendeeInput } from '../domain/identity.ts';
import { pageI18n } from '../i18n/page.ts';
import { editedRecord } from './not-found.ts';
import { signedInPage } from './signed-in.ts';
import { pathTo } from '../routes.ts';
import { getAttendee } from '../services/accounts/attendees.ts';
import { PageExit } from './page-exit.ts';

export async function loadAttendeeEdit(astro: AstroGlobal) {
  const { t, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const params = new URLSearchParams(astro.url.searchParams);
  const existing = await editedRecord(params, (id) => getAttendee(signedIn.scope, id));
  if (existing instanceof PageExit) return existing;
  const venue = params.get('venue') ?? '';
  const venueCountry = isCountryCode(venue) ? venue : undefined;
  const initial: AttendeeInput = existing
    ? { name: existing.name, nationality: existing.nationality, idCardType: existing.idCardType, idCardNo: existing.idCardNo }
    : { name: '', nationality: '', idCardType: '', idCardNo: '' };
  // Back to the list with the same choosing parameters (the list checks them again).
  params.delete('id');
  const query = params.toString();
  const listHref = link(pathTo('attendeeListPage')) + (query ? `?${query}` : '');
  const title = existing ? t('profile.attendee.editTitle') : t('title.customerCreatePage');
  return {
    existing,
    initial,
    listHref,
    title,
    venueCountry,
  };
}
