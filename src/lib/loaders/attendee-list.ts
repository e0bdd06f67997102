/**
 * What the attendee list renders (auth route): the user's saved attendees, and, when the order
 * confirmation asks for a choice, how many it needs and where the choice goes back to.
 */
import type { AstroGlobal } from 'astro';
import { returnWithChoice } from '../domain/address.ts';
import type { IdCardType } from '../domain/identity.ts';
import { isCountryCode } from '../domain/countries.ts';
import { messagesFor } from '../i18n/index.ts';
import { pageI18n } from '../i18n/page.ts';
import { signedInPage } from './signed-in.ts';
import { pathTo } from '../routes.ts';
import { listAttendees, MAX_ATTENDEES } from '../services/accounts/attendees.ts';
import { PageExit } from './page-exit.ts';

export async function loadAttendeeList(astro: AstroGlobal) {
  const { locale, t, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const attendees = await listAttendees(signedIn.scope);
  const params = astro.url.searchParams;
  const returnPath = params.get('return');
  const needText = params.get('need') ?? '1';
  const need = /^\d{1,2}$/.test(needText) ? Math.min(Math.max(Number(needText), 1), MAX_ATTENDEES) : 1;
  const venue = params.get('venue') ?? '';
  const selecting = params.get('select') === '1' && returnWithChoice(returnPath, {}) !== null;
  const carried = new URLSearchParams();
  if (selecting) {
    carried.set('select', '1');
    carried.set('return', returnPath!);
    carried.set('need', String(need));
  }
  if (isCountryCode(venue)) carried.set('venue', venue);
  const createHref = (id?: number) => {
    const query = new URLSearchParams(carried);
    if (id) query.set('id', String(id));
    const text = query.toString();
    return link(pathTo('customerCreatePage')) + (text ? `?${text}` : '');
  };
  const typeName = (type: IdCardType) => t(`profile.attendee.type.${type}`);
  const rows = attendees.map((attendee) => ({
    id: attendee.id,
    name: attendee.name,
    detail: `${attendee.nationalityName} · ${typeName(attendee.idCardType)} ${attendee.idCardNo}`,
  }));
  const deleteMessages = messagesFor(locale, ['profile.delete', 'error.network', 'error.timeout']);
  return {
    attendees,
    createHref,
    deleteMessages,
    need,
    returnPath,
    rows,
    selecting,
  };
}
