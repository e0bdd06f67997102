import { describe, expect, it } from 'vitest';
import { SANDBOX_PROVIDER, STRIPE_PROVIDER } from '../../src/lib/config/orders.ts';
import { PAYMENT_METHODS } from '../../src/lib/domain/payment-methods.ts';
import { checkoutProvider, offeredPaymentMethods, type PaymentSetup } from '../../src/lib/domain/payment-provider-choice.ts';

const setup = (overrides: Partial<PaymentSetup>): PaymentSetup => ({
  appEnv: 'production',
  stripeConfigured: false,
  stripeAccountCountry: 'HK',
  ...overrides,
});

describe('checkoutProvider', () => {
  it('pays in the sandbox in a local build only, even with Stripe keys', () => {
    expect(checkoutProvider(setup({ appEnv: 'local' }))).toBe(SANDBOX_PROVIDER);
    expect(checkoutProvider(setup({ appEnv: 'local', stripeConfigured: true }))).toBe(SANDBOX_PROVIDER);
  });

  it('pays through Stripe in production once it is configured, else nowhere', () => {
    expect(checkoutProvider(setup({ stripeConfigured: true }))).toBe(STRIPE_PROVIDER);
    expect(checkoutProvider(setup({}))).toBeNull();
  });
});

describe('offeredPaymentMethods', () => {
  it('offers what Stripe takes for the currency and account', () => {
    const stripe = setup({ stripeConfigured: true });
    expect(offeredPaymentMethods(stripe, 'HKD')).toEqual(PAYMENT_METHODS.filter((method) => method !== 'paynow' && method !== 'paypal'));
    expect(offeredPaymentMethods(stripe, 'TWD')).not.toContain('wechat_pay');
    expect(offeredPaymentMethods(setup({ stripeConfigured: true, stripeAccountCountry: 'SG' }), 'SGD')).toContain('paynow');
  });

  it('offers every method in the sandbox', () => {
    expect(offeredPaymentMethods(setup({ appEnv: 'local' }), 'TWD')).toEqual([...PAYMENT_METHODS]);
  });
});
