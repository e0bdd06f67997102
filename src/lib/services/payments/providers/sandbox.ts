/**
 * The built-in sandbox provider (DESIGN.md, Payments): the default locally and in tests. It keeps
 * its own ledger (`sandbox_payments`), as a real provider keeps its records apart from ours, and
 * has its own hosted page (/sandbox/pay/{ref}) where the buyer approves, declines or cancels. After
 * a decision it sends a signed webhook to the notify URL; the webhook names only the payment, so
 * the receiver has to ask the ledger (`query`) what happened. No money moves.
 */
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { SANDBOX_PROVIDER } from '../../../config/orders.ts';
import type { Db } from '../../../data/client.ts';
import { sandboxPayments } from '../../../db/schema.ts';
import { DomainError } from '../../../domain/errors.ts';
import type { Money } from '../../../domain/money.ts';
import { isQrMethod, type ProviderPaymentStatus } from '../../../domain/payment-outcome.ts';
import { parseSignatureHeader, signatureHeader, signedPayload, timestampFresh } from '../../../domain/payment-webhook.ts';
import { localizedPath } from '../../../i18n/locales.ts';
import type { ServiceEnv } from '../../platform/env.ts';
import { sign, verify } from '../../platform/secrets.ts';
import type { CreatedPayment, CreatePaymentInput, PaymentProvider, ProviderPayment, WebhookNotice } from './types.ts';

export const SANDBOX_SIGNATURE_HEADER = 'sandbox-signature';
/** A sandbox reference: "sbx_" and a base64url HMAC-SHA256 (43 characters). */
export const SANDBOX_REF_PATTERN = /^sbx_[A-Za-z0-9_-]{43}$/;

const REF_PURPOSE = 'sandbox-ref';
const WEBHOOK_PURPOSE = 'sandbox-webhook';

export type SandboxRow = typeof sandboxPayments.$inferSelect;
export type SandboxStatus = SandboxRow['status'];
export const SANDBOX_DECISIONS = ['approve', 'decline', 'cancel'] as const;
export type SandboxDecision = (typeof SANDBOX_DECISIONS)[number];

const STATUS_AFTER: Record<SandboxDecision, SandboxStatus> = { approve: 'approved', decline: 'declined', cancel: 'cancelled' };
const REPORTED: Record<SandboxStatus, ProviderPaymentStatus> = {
  pending: 'pending',
  approved: 'succeeded',
  declined: 'failed',
  cancelled: 'cancelled',
  refunded: 'refunded',
};

function hex(bytes: Uint8Array): string {
  return [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The hosted page of a payment, on the origin that serves the notify URL (this worker), in the buyer's language. */
function hostedPageUrl(ref: string, input: Pick<CreatePaymentInput, 'notifyUrl' | 'locale'>): string {
  return new URL(localizedPath(`/sandbox/pay/${ref}`, input.locale), input.notifyUrl).href;
}

/** The hosted page of a payment; QR methods scan the same page. */
function checkout(ref: string, input: Pick<CreatePaymentInput, 'notifyUrl' | 'locale' | 'method'>): CreatedPayment {
  const checkoutUrl = hostedPageUrl(ref, input);
  return { ref, checkoutUrl, qrContent: isQrMethod(input.method) ? checkoutUrl : null };
}

function reported(row: SandboxRow): ProviderPayment {
  return { ref: row.ref, status: REPORTED[row.status], amount: { amount: row.amount, currency: row.currency } };
}

/** A payment of the sandbox ledger, for its hosted page; null for an unknown or malformed reference. */
export async function sandboxPayment(db: Db, ref: string): Promise<SandboxRow | null> {
  if (!SANDBOX_REF_PATTERN.test(ref)) return null;
  const [row] = await db.select().from(sandboxPayments).where(eq(sandboxPayments.ref, ref));
  return row ?? null;
}

export interface WebhookDelivery {
  url: string;
  init: { method: 'POST'; headers: Record<string, string>; body: string };
}

/** A signed webhook saying "payment `ref` changed", as the sandbox sends it (tests build replays and forgeries from it). */
export async function sandboxWebhook(env: ServiceEnv, notifyUrl: string, ref: string, now: number): Promise<WebhookDelivery> {
  const body = JSON.stringify({ id: `evt_${hex(crypto.getRandomValues(new Uint8Array(16)))}`, type: 'payment.updated', ref });
  const signature = await sign(env, WEBHOOK_PURPOSE, signedPayload(now, body));
  return {
    url: notifyUrl,
    init: {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signatureHeader({ timestamp: now, signature }) },
      body,
    },
  };
}

export interface SandboxDecisionResult {
  payment: SandboxRow;
  /** The webhook to deliver; null when the payment had already been decided (nothing changed). */
  webhook: WebhookDelivery | null;
}

/**
 * The buyer's choice on the hosted page. Only a pending payment can be decided, once: the update
 * is guarded by its status, so a double submit changes nothing the second time.
 */
export async function decideSandboxPayment(
  db: Db,
  env: ServiceEnv,
  ref: string,
  decision: SandboxDecision,
  now: number,
): Promise<SandboxDecisionResult | null> {
  if (!SANDBOX_REF_PATTERN.test(ref)) return null;
  const [decided] = await db
    .update(sandboxPayments)
    .set({ status: STATUS_AFTER[decision], updatedAt: now })
    .where(and(eq(sandboxPayments.ref, ref), eq(sandboxPayments.status, 'pending')))
    .returning();
  if (decided) return { payment: decided, webhook: await sandboxWebhook(env, decided.notifyUrl, ref, now) };
  const current = await sandboxPayment(db, ref);
  return current ? { payment: current, webhook: null } : null;
}

export function sandboxProvider(db: Db, env: ServiceEnv): PaymentProvider {
  // Made here rather than at the module's top: a production build, which calls no sandbox, then keeps none of it.
  const webhookBody = z.object({
    id: z.string().regex(/^evt_[0-9a-f]{32}$/),
    type: z.literal('payment.updated'),
    ref: z.string().regex(SANDBOX_REF_PATTERN),
  });
  return {
    name: SANDBOX_PROVIDER,

    async create(input: CreatePaymentInput, now: number): Promise<CreatedPayment> {
      // The reference is derived from the merchant's key, so the same request always lands on the same payment.
      const ref = `sbx_${await sign(env, REF_PURPOSE, `${input.merchantRef}\n${input.idempotencyKey}`)}`;
      await db
        .insert(sandboxPayments)
        .values({
          ref,
          merchantRef: input.merchantRef,
          method: input.method,
          amount: input.amount.amount,
          currency: input.amount.currency,
          status: 'pending',
          returnUrl: input.returnUrl,
          notifyUrl: input.notifyUrl,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing();
      return checkout(ref, input);
    },

    async reopen(ref: string, input: Pick<CreatePaymentInput, 'notifyUrl' | 'locale' | 'method'>): Promise<CreatedPayment> {
      return checkout(ref, input);
    },

    async query(ref: string): Promise<ProviderPayment | null> {
      const row = await sandboxPayment(db, ref);
      return row ? reported(row) : null;
    },

    async refund(ref: string, amount: Money, now: number): Promise<ProviderPayment> {
      const row = await sandboxPayment(db, ref);
      if (!row) throw new Error(`Sandbox payment ${ref} does not exist`);
      if (amount.currency !== row.currency || amount.amount <= 0 || amount.amount > row.amount) {
        throw new Error(`Sandbox payment ${ref} cannot refund ${amount.amount} ${amount.currency}`);
      }
      if (row.status === 'refunded') return reported(row);
      const [refunded] = await db
        .update(sandboxPayments)
        .set({ status: 'refunded', updatedAt: now })
        .where(and(eq(sandboxPayments.ref, ref), eq(sandboxPayments.status, 'approved')))
        .returning();
      if (refunded) return reported(refunded);
      const current = (await sandboxPayment(db, ref))!;
      if (current.status !== 'refunded') throw new Error(`Sandbox payment ${ref} is ${current.status}, not approved: nothing to refund`);
      return reported(current);
    },

    async verifyWebhook(headers: Headers, body: string, now: number): Promise<WebhookNotice> {
      const presented = parseSignatureHeader(headers.get(SANDBOX_SIGNATURE_HEADER));
      if (!presented || !(await verify(env, WEBHOOK_PURPOSE, signedPayload(presented.timestamp, body), presented.signature))) {
        throw new DomainError('webhook_signature_invalid');
      }
      if (!timestampFresh(presented.timestamp, now)) throw new DomainError('webhook_timestamp_stale');
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        throw new DomainError('invalid_input', { field: 'body' }, 'body');
      }
      const notice = webhookBody.safeParse(parsed);
      if (!notice.success) throw new DomainError('invalid_input', { field: 'body' }, 'body');
      return { eventId: notice.data.id, ref: notice.data.ref };
    },
  };
}
