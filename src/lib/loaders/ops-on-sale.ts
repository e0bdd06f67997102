/**
 * The console's on-sale screen of one session (/ops/on-sales/:id): its sale times, switches,
 * admission rate, live state and refund preview, and its forms (posted to the page itself): high
 * demand per session and per tier, the admission rate, postpone and cancel, the last two only when
 * the session's number is typed again (the second confirmation, checked here on the server). A
 * change that succeeds comes back as a GET with what it did (`?done=`); one refused re-shows the
 * form with what was typed and the error on its field.
 */
import type { AstroGlobal } from 'astro';
import { statusOf } from '../api/errors.ts';
import { utcInputMoment } from '../domain/console-time.ts';
import { DomainError } from '../domain/errors.ts';
import { pageI18n } from '../i18n/page.ts';
import { cancelSession, postponeSession } from '../services/catalogue/show-changes.ts';
import { type RefundPreview, refundPreview } from '../services/catalogue/refund-preview.ts';
import { setAdmissionRate } from '../services/on-sale/admission-rate.ts';
import { switchHighDemand, switchTierHighDemand } from '../services/on-sale/high-demand.ts';
import { type OnSaleLiveState, type OnSaleSession, onSaleLiveState, onSaleSession } from '../services/on-sale/on-sale-console.ts';
import type { StaffScope } from '../services/platform/scope.ts';
import { PageExit } from './page-exit.ts';
import { staffPage } from './staff-page.ts';

export const ON_SALE_ACTIONS = ['high-demand', 'tier-high-demand', 'admission-rate', 'postpone', 'cancel'] as const;
export type OnSaleAction = (typeof ON_SALE_ACTIONS)[number];

/** A refused form: which one, its field at fault, the message, and what was typed. */
export interface OnSaleFormError {
  action: OnSaleAction;
  field: string | null;
  message: string;
  typed: Record<string, string>;
}

export interface OnSaleControlPage {
  scope: StaffScope;
  session: OnSaleSession;
  live: OnSaleLiveState;
  preview: RefundPreview;
  /** What the change just made did, as a sentence (after its redirect). */
  notice: string | null;
  error: OnSaleFormError | null;
}

type PageAstro = Pick<AstroGlobal, 'locals' | 'request' | 'url' | 'response'>;

/** A form's refusal on its field, with the status a page answers it with. */
class FormRefusal extends Error {
  constructor(
    readonly field: string,
    readonly messageText: string,
  ) {
    super(messageText);
  }
}

function confirmed(form: FormData, sessionId: number, t: ReturnType<typeof pageI18n>['t']): void {
  if (String(form.get('confirm') ?? '').trim() !== String(sessionId)) {
    throw new FormRefusal('confirm', t('ops.onSale.confirm.mismatch', { id: sessionId }));
  }
}

function moment(form: FormData, field: string, t: ReturnType<typeof pageI18n>['t']): number {
  const value = utcInputMoment(String(form.get(field) ?? ''));
  if (value === null) throw new FormRefusal(field, t('ops.onSale.dateInvalid'));
  return value;
}

/** Carries out one posted form; answers the `?done=` query of the page to come back to. */
async function act(scope: StaffScope, sessionId: number, action: OnSaleAction, form: FormData, t: ReturnType<typeof pageI18n>['t']) {
  switch (action) {
    case 'high-demand':
      await switchHighDemand(scope, sessionId, form.get('on') === '1');
      return 'done=highDemand';
    case 'tier-high-demand':
      await switchTierHighDemand(scope, Number(form.get('tierId')), form.get('on') === '1');
      return 'done=highDemand';
    case 'admission-rate': {
      const typed = String(form.get('perMinute') ?? '').trim();
      const perMinute = form.get('reset') === '1' ? null : typed === '' ? Number.NaN : Number(typed);
      await setAdmissionRate(scope, sessionId, perMinute);
      return 'done=admission';
    }
    case 'postpone': {
      const next = {
        startsAt: moment(form, 'startsAt', t),
        endsAt: moment(form, 'endsAt', t),
        refundUntil: moment(form, 'refundUntil', t),
      };
      confirmed(form, sessionId, t);
      await postponeSession(scope, sessionId, next);
      return 'done=postpone';
    }
    case 'cancel': {
      confirmed(form, sessionId, t);
      const done = await cancelSession(scope, sessionId);
      return `done=cancel&refunded=${done.refunded}&unpaid=${done.unpaidClosed}&listings=${done.listingsClosed}`;
    }
  }
}

function noticeOf(query: URLSearchParams, t: ReturnType<typeof pageI18n>['t']): string | null {
  const count = (name: string) => Number(query.get(name)) || 0;
  switch (query.get('done')) {
    case 'highDemand':
      return t('ops.onSale.highDemand.done');
    case 'admission':
      return t('ops.onSale.admission.done');
    case 'postpone':
      return t('ops.onSale.postpone.done');
    case 'cancel':
      return t('ops.onSale.cancel.done', { refunded: count('refunded'), unpaid: count('unpaid'), listings: count('listings') });
    default:
      return null;
  }
}

export async function onSaleControlPage(astro: PageAstro, id: string | undefined): Promise<OnSaleControlPage | PageExit> {
  const page = await staffPage(astro, 'on_sale');
  if (page instanceof PageExit) return page;
  const { scope } = page;
  const { t, link } = pageI18n(astro.locals);
  const sessionId = Number(id);
  if (!/^[1-9]\d{0,9}$/.test(id ?? '')) return PageExit.notFound;

  let error: OnSaleFormError | null = null;
  if (astro.request.method === 'POST') {
    const form = await astro.request.formData();
    const action = String(form.get('action') ?? '') as OnSaleAction;
    if (!ON_SALE_ACTIONS.includes(action)) return PageExit.notFound;
    try {
      const done = await act(scope, sessionId, action, form, t);
      return PageExit.redirect(`${link(`/ops/on-sales/${sessionId}`)}?${done}`, 303);
    } catch (cause) {
      const typed = Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
      if (cause instanceof FormRefusal) {
        error = { action, field: cause.field, message: cause.messageText, typed };
        astro.response.status = 400;
      } else if (cause instanceof DomainError) {
        if (cause.code === 'session_not_found') return PageExit.notFound;
        error = { action, field: cause.field ?? null, message: t(`error.${cause.code}`, cause.params), typed };
        astro.response.status = statusOf(cause);
      } else {
        throw cause;
      }
    }
  }

  try {
    const [session, live, preview] = await Promise.all([
      onSaleSession(scope, sessionId),
      onSaleLiveState(scope, sessionId),
      refundPreview(scope, sessionId),
    ]);
    return { scope, session, live, preview, notice: error ? null : noticeOf(astro.url.searchParams, t), error };
  } catch (cause) {
    if (cause instanceof DomainError && cause.code === 'session_not_found') return PageExit.notFound;
    throw cause;
  }
}
