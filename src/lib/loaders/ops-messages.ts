/** The console's dead messages (/ops/messages, permission 'messages'): the list, and its "redeliver" form posted to the page itself. */
import type { AstroGlobal } from 'astro';
import { DomainError } from '../domain/errors.ts';
import { maskedContact } from '../domain/refund-preview.ts';
import { pageI18n } from '../i18n/page.ts';
import { deadMessages, redeliverDeadMessage } from '../services/messages/dead-letters.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

export interface DeadMessageRow {
  id: string;
  kind: string;
  /** The recipient, masked as everywhere in the console. */
  to: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: number;
}

export interface MessagesPage {
  scope: StaffScope;
  rows: DeadMessageRow[];
  redelivered: boolean;
}

export async function messagesPage(astro: Pick<AstroGlobal, 'locals' | 'request' | 'url'>): Promise<MessagesPage | PageExit> {
  const page = await staffPage(astro, 'messages');
  if (page instanceof PageExit) return page;
  const { scope } = page;
  if (astro.request.method === 'POST') {
    const id = String((await astro.request.formData()).get('id') ?? '');
    if (!/^[0-9a-f]{32}$/.test(id)) return PageExit.notFound;
    try {
      await redeliverDeadMessage(scope, id);
    } catch (cause) {
      // Redelivered already (another operator, a second click): the list no longer shows it either way.
      if (!(cause instanceof DomainError && cause.code === 'not_found')) throw cause;
    }
    return PageExit.redirect(`${pageI18n(astro.locals).link('/ops/messages')}?done=redelivered`, 303);
  }
  const rows = (await deadMessages(scope.db)).map((message) => ({
    id: message.id,
    kind: message.kind,
    to: maskedContact(message.channel === 'sms' ? { phone: message.target, email: null } : { phone: null, email: message.target }),
    attempts: message.attempts,
    lastError: message.lastError,
    createdAt: message.createdAt,
  }));
  return { scope, rows, redelivered: astro.url.searchParams.get('done') === 'redelivered' };
}
