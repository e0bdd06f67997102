/**
 * What the payment service needs from a payment provider. A provider is the source of truth about
 * money: our service never believes a webhook's body, it asks the provider (`query`) what happened.
 */
import type { Money } from '../../../domain/money.ts';
import type { PaymentMethod } from '../../../domain/payment-methods.ts';
import type { ProviderPaymentStatus } from '../../../domain/payment-outcome.ts';
import type { Locale } from '../../../i18n/locales.ts';

export interface CreatePaymentInput {
  /** Our reference of what is paid for (one order). */
  merchantRef: string;
  /**
   * Creating twice with the same merchantRef and key gives the same payment, as real providers'
   * idempotency keys do: a retried or concurrent request can never open a second charge.
   */
  idempotencyKey: string;
  method: PaymentMethod;
  amount: Money;
  /** Where the buyer's browser goes after deciding on the provider's page. */
  returnUrl: string;
  /** Where the provider posts its signed webhooks. */
  notifyUrl: string;
  /** The buyer's language, for the provider's hosted page. */
  locale: Locale;
  /** What the buyer sees they pay for on the provider's page, in their language. */
  description: string;
}

export interface CreatedPayment {
  ref: string;
  /** The provider's hosted page for this payment. */
  checkoutUrl: string;
  /** What the buyer scans to pay (QR methods only), else null. */
  qrContent: string | null;
}

export interface ProviderPayment {
  ref: string;
  status: ProviderPaymentStatus;
  amount: Money;
}

/** A verified webhook: only which payment to look at again (null: an event about nothing we track). */
export interface WebhookNotice {
  eventId: string;
  ref: string | null;
}

export interface PaymentProvider {
  readonly name: string;
  create(input: CreatePaymentInput, now: number): Promise<CreatedPayment>;
  /** Where the buyer pays a payment already created; its return URL once there is nothing left to do there. */
  reopen(ref: string, input: Pick<CreatePaymentInput, 'returnUrl' | 'notifyUrl' | 'locale' | 'method'>): Promise<CreatedPayment>;
  /** The payment as the provider knows it now; null when it knows no such payment. */
  query(ref: string): Promise<ProviderPayment | null>;
  /** Returns (part of) a succeeded payment to the payer; refunding an already refunded payment is a no-op. */
  refund(ref: string, amount: Money, now: number): Promise<ProviderPayment>;
  /** Checks a delivery's signature and age; throws a DomainError when it is forged, stale or malformed. */
  verifyWebhook(headers: Headers, body: string, now: number): Promise<WebhookNotice>;
}
