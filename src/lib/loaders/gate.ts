/**
 * What the gate page renders (auth route): the sessions whose doors the user keeps, and, for the
 * chosen one, its admitted count and door staff; without a choice, the attendee changes waiting for
 * a decision. A session that is none of the user's exits to the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { messagesFor } from '../i18n/index.ts';
import { pageI18n } from '../i18n/page.ts';
import { pathTo } from '../routes.ts';
import { admittedCount, gateSessions, sellsTicketsAt } from '../services/gate/admission.ts';
import { doorStaff } from '../services/gate/door-staff.ts';
import { signedInPage } from './signed-in.ts';
import { pendingAttendeeChanges } from '../services/orders/attendee-changes.ts';
import { PageExit } from './page-exit.ts';

export async function loadGate(astro: AstroGlobal) {
  const { locale, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;

  const sessions = await gateSessions(signedIn.scope);
  const requested = astro.url.searchParams.get('session');
  const chosen = requested === null ? null : sessions.find((session) => String(session.id) === requested);
  if (chosen === undefined) return PageExit.notFound;
  const count = chosen ? await admittedCount(signedIn.scope, chosen.id) : null;
  const staff = chosen && (await sellsTicketsAt(signedIn.scope, chosen.id)) ? await doorStaff(signedIn.scope, chosen.id) : null;
  const gatePath = link(pathTo('gatePage'));
  // The door device words its own refusals when it decides without signal.
  const messages = messagesFor(locale, ['gate.', 'error.network', 'error.timeout', 'error.entry_code_', 'error.ticket_']);
  const staffMessages = messagesFor(locale, ['gate.staff.', 'error.network', 'error.timeout']);
  const changeRequests = chosen ? [] : await pendingAttendeeChanges(signedIn.scope);
  const changeMessages = messagesFor(locale, ['gate.changes.', 'profile.attendee.type.', 'error.network', 'error.timeout']);
  return {
    changeMessages,
    changeRequests,
    chosen,
    count,
    gatePath,
    messages,
    sessions,
    staff,
    staffMessages,
  };
}
