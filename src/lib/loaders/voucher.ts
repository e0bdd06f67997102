/**
 * What a ticket voucher's page renders (a private link: the order and its key in the URL): each
 * ticket with its current entry code and QR, and when the codes next change. A link whose key does
 * not match exits to the 404 page; the page is kept by no cache and passes its URL to no link.
 */
import type { AstroGlobal } from 'astro';
import { currentEntryCode, ENTRY_TOTP, entryPayload, msUntilNextStep } from '../domain/entry-code.ts';
import { entryQr } from '../domain/ticket-code.ts';
import { pageI18n } from '../i18n/page.ts';
import { pageScope } from '../edge/page-scope.ts';
import { voucherFor } from '../services/orders/vouchers.ts';
import { keepUnshared } from '../edge/page-request.ts';
import { PageExit } from './page-exit.ts';

export async function loadVoucher(astro: AstroGlobal) {
  const { t } = pageI18n(astro.locals);
  const params = astro.url.searchParams;
  const scope = await pageScope(astro);
  const voucher = await voucherFor(scope, params.get('order') ?? '', params.get('key') ?? '');
  if (!voucher) return PageExit.notFound;

  // The URL holds the key: no shared cache keeps the page and no link passes it on.
  keepUnshared(astro.locals);
  astro.response.headers.set('cache-control', 'no-store');
  astro.response.headers.set('referrer-policy', 'no-referrer');
  astro.response.headers.set('x-robots-tag', 'noindex');

  const count = voucher.tickets.length;
  const secondsLeft = Math.ceil(msUntilNextStep(scope.now, ENTRY_TOTP.stepSeconds) / 1000);
  const tickets = await Promise.all(
    voucher.tickets.map(async (ticket, index) => {
      const code = ticket.entrySecret ? await currentEntryCode(ticket.entrySecret, scope.now) : null;
      return {
        ...ticket,
        heading: t('voucher.ticketOf', { index: index + 1, count }),
        code,
        qr: code ? entryQr(entryPayload(ticket.ticketNo, code)) : null,
      };
    }),
  );
  const hasQr = tickets.some((ticket) => ticket.qr);
  return {
    count,
    hasQr,
    secondsLeft,
    tickets,
    voucher,
  };
}
