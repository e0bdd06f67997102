/**
 * Stripe's rules that our payments depend on, as published in its documentation:
 * amounts in Stripe's own minor units (docs.stripe.com/currencies), and which payment method
 * Stripe can take for a business in a given country, in a given currency (each method's
 * "Determine compatibility" section). Pure, so the adapter and the checkout agree.
 */
import type { PaymentMethod } from './payment-methods.ts';
import type { Money } from './money.ts';

/** Currencies Stripe counts in whole units (an amount of 500 JPY is sent as 500). */
const ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
/** Currencies Stripe counts in thousandths; their last digit must be 0. */
const THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

/**
 * Digits of Stripe's minor unit for a currency. Every other currency is two-decimal at Stripe,
 * including some we count in whole units (TWD, IDR): NT$2,800 is sent as 280000.
 */
export function stripeMinorDigits(currency: string): number {
  const code = currency.toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  return THREE_DECIMAL.has(code) ? 3 : 2;
}

/** Our amount (minor units with `ourDigits` digits) as Stripe's integer amount, and its lowercase currency. */
export function toStripeAmount(money: Money, ourDigits: number): { amount: number; currency: string } {
  const shift = stripeMinorDigits(money.currency) - ourDigits;
  let amount: number;
  if (shift >= 0) {
    amount = money.amount * 10 ** shift;
  } else {
    const unit = 10 ** -shift;
    if (money.amount % unit !== 0) throw new Error(`${money.amount} ${money.currency} has more decimals than Stripe takes`);
    amount = money.amount / unit;
  }
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`${money.amount} ${money.currency} is not a payable amount`);
  if (THREE_DECIMAL.has(money.currency.toUpperCase()) && amount % 10 !== 0) {
    throw new Error(`${money.amount} ${money.currency} must end in 0 at Stripe`);
  }
  return { amount, currency: money.currency.toLowerCase() };
}

/** Stripe's integer amount in a currency, back in our minor units (`ourDigits` digits), rounding down. */
export function fromStripeAmount(amount: number, currency: string, ourDigits: number): Money {
  const shift = stripeMinorDigits(currency) - ourDigits;
  const ours = shift >= 0 ? Math.floor(amount / 10 ** shift) : amount * 10 ** -shift;
  return { amount: ours, currency: currency.toUpperCase() };
}

/**
 * When Stripe signed a webhook, in ms: the `t=` (seconds) of its Stripe-Signature header, null when
 * absent. Stripe's library refuses only deliveries too old; we check both directions with this.
 */
export function stripeSignatureTime(header: string): number | null {
  const seconds = header.match(/(?:^|,)\s*t=(\d{1,12})\s*(?:,|$)/)?.[1];
  return seconds === undefined ? null : Number(seconds) * 1000;
}

/** The Stripe payment method type each of our methods is paid with (every card brand is a card). */
export type StripeMethod = 'card' | 'wechat_pay' | 'alipay' | 'paynow' | 'paypal';

const STRIPE_METHOD: Record<PaymentMethod, StripeMethod> = {
  visa: 'card',
  mastercard: 'card',
  amex: 'card',
  unionpay: 'card',
  credit_card: 'card',
  bank_card: 'card',
  card_aggregator: 'card',
  wechat_pay: 'wechat_pay',
  alipay: 'alipay',
  paynow: 'paynow',
  paypal: 'paypal',
};

export function stripeMethodOf(method: PaymentMethod): StripeMethod {
  return STRIPE_METHOD[method];
}

const EEA_GB_CH = [
  'AT',
  'BE',
  'BG',
  'CH',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GB',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LI',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'NO',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
];

interface Compatibility {
  /** Countries of a Stripe account that can take the method; null: every Stripe country. */
  businessLocations: readonly string[] | null;
  /** Currencies a buyer can be charged in with it; null: every currency Stripe presents. */
  currencies: readonly string[] | null;
}

const COMPATIBILITY: Record<StripeMethod, Compatibility> = {
  card: { businessLocations: null, currencies: null },
  wechat_pay: {
    businessLocations: ['AU', 'CA', 'HK', 'JP', 'SG', 'US', ...EEA_GB_CH],
    currencies: ['AUD', 'CAD', 'CHF', 'CNY', 'DKK', 'EUR', 'GBP', 'HKD', 'JPY', 'NOK', 'SEK', 'SGD', 'USD'],
  },
  alipay: {
    businessLocations: ['AU', 'CA', 'HK', 'JP', 'MY', 'NZ', 'SG', 'US', ...EEA_GB_CH],
    currencies: ['AUD', 'CAD', 'CNY', 'EUR', 'GBP', 'HKD', 'JPY', 'MYR', 'NZD', 'SGD', 'USD'],
  },
  paynow: { businessLocations: ['SG'], currencies: ['SGD'] },
  paypal: {
    businessLocations: EEA_GB_CH,
    currencies: ['AUD', 'CAD', 'CHF', 'CZK', 'DKK', 'EUR', 'GBP', 'HKD', 'NOK', 'NZD', 'PLN', 'SEK', 'SGD', 'USD'],
  },
};

/** Whether a Stripe account in `accountCountry` can charge `currency` with our `method`. */
export function stripeSupports(method: PaymentMethod, currency: string, accountCountry: string): boolean {
  const { businessLocations, currencies } = COMPATIBILITY[STRIPE_METHOD[method]];
  return (
    (businessLocations === null || businessLocations.includes(accountCountry.toUpperCase())) &&
    (currencies === null || currencies.includes(currency.toUpperCase()))
  );
}

/** The Checkout page's language for ours (Stripe's own list has zh-HK and zh-TW; Simplified is 'zh'). */
export function stripeLocale(locale: string): 'en' | 'zh' | 'zh-HK' | 'zh-TW' {
  if (locale === 'zh-HK' || locale === 'zh-TW') return locale;
  return locale === 'zh-CN' ? 'zh' : 'en';
}
