/**
 * What the payment sandbox's page of one payment renders (local builds only): the payment and its
 * amount; a POST of the tester's decision settles it, delivers the webhook the provider would, and
 * returns to the shop's return address.
 */
import type { AstroGlobal } from 'astro';
import { env } from 'cloudflare:workers';
import { api } from '../api/app.ts';
import { formattedMoney } from '../domain/money.ts';
import { pageI18n } from '../i18n/page.ts';
import { pageScope } from '../edge/page-scope.ts';
import {
  decideSandboxPayment,
  sandboxPayment,
  SANDBOX_DECISIONS,
  type SandboxDecision,
  type WebhookDelivery,
} from '../services/payments/providers/sandbox.ts';
import { keepPrivate } from '../edge/page-request.ts';
import { PageExit } from './page-exit.ts';

async function deliver(webhook: WebhookDelivery): Promise<void> {
  try {
    const response = await api.fetch(new Request(webhook.url, webhook.init), env);
    if (!response.ok) console.error('Sandbox webhook refused', response.status, await response.text());
  } catch (error) {
    // The shop still learns the outcome: its payment page asks the sandbox again when it polls.
    console.error('Sandbox webhook failed', error);
  }
}

export async function loadSandboxPayment(astro: AstroGlobal) {
  // The sandbox stands in for a provider in local builds only: a deployed worker has no such page.
  if (env.APP_ENV !== 'local') return PageExit.notFound;

  const { locale } = pageI18n(astro.locals);
  const { db } = astro.locals;
  const ref = astro.params.ref ?? '';

  if (astro.request.method === 'POST') {
    const form = await astro.request.formData().catch(() => null);
    const decision = form?.get('decision');
    if (typeof decision !== 'string' || !(SANDBOX_DECISIONS as readonly string[]).includes(decision)) {
      return PageExit.redirect(astro.locals.originPathname, 303);
    }
    const result = await decideSandboxPayment(db, env, ref, decision as SandboxDecision, Date.now());
    if (!result) return PageExit.notFound;
    if (!result.webhook) return PageExit.redirect(astro.locals.originPathname, 303);
    await deliver(result.webhook);
    return PageExit.redirect(result.payment.returnUrl, 303);
  }

  const payment = await sandboxPayment(db, ref);
  if (!payment) return PageExit.notFound;
  const table = (await pageScope(astro)).currencies;
  const amount = formattedMoney(payment.amount, payment.currency, locale, table).formatted;
  keepPrivate(astro);
  return {
    amount,
    payment,
  };
}
