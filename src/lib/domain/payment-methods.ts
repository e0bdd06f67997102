/** The payment methods a buyer may choose (SPEC.md section 9), and which are paid by scanning a QR code. */

export const PAYMENT_METHODS = [
  'amex',
  'alipay',
  'paynow',
  'card_aggregator',
  'wechat_pay',
  'credit_card',
  'bank_card',
  'paypal',
  'visa',
  'mastercard',
  'unionpay',
] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** Methods paid by scanning a QR code (SPEC.md section 9); every other method opens the provider's page. */
export const QR_PAYMENT_METHODS: readonly PaymentMethod[] = ['wechat_pay', 'alipay'];
