import { describe, expect, it } from 'vitest';
import {
  fromStripeAmount,
  stripeLocale,
  stripeMinorDigits,
  stripeSignatureTime,
  stripeSupports,
  toStripeAmount,
} from '../../src/lib/domain/stripe.ts';

describe('amounts in Stripe minor units', () => {
  it('sends zero-decimal currencies as whole units', () => {
    expect(stripeMinorDigits('JPY')).toBe(0);
    expect(stripeMinorDigits('krw')).toBe(0);
    expect(toStripeAmount({ amount: 500, currency: 'JPY' }, 0)).toEqual({ amount: 500, currency: 'jpy' });
    expect(toStripeAmount({ amount: 45_000, currency: 'KRW' }, 0)).toEqual({ amount: 45_000, currency: 'krw' });
    expect(toStripeAmount({ amount: 4_500_000, currency: 'VND' }, 0)).toEqual({ amount: 4_500_000, currency: 'vnd' });
  });

  it('sends two-decimal currencies in hundredths, including those we count in whole units (IDR, TWD)', () => {
    expect(toStripeAmount({ amount: 38_850, currency: 'HKD' }, 2)).toEqual({ amount: 38_850, currency: 'hkd' });
    expect(stripeMinorDigits('IDR')).toBe(2);
    expect(toStripeAmount({ amount: 3_500_000, currency: 'IDR' }, 0)).toEqual({ amount: 350_000_000, currency: 'idr' });
    expect(toStripeAmount({ amount: 2_800, currency: 'TWD' }, 0)).toEqual({ amount: 280_000, currency: 'twd' });
  });

  it('comes back to our minor units', () => {
    expect(fromStripeAmount(350_000_000, 'idr', 0)).toEqual({ amount: 3_500_000, currency: 'IDR' });
    expect(fromStripeAmount(500, 'jpy', 0)).toEqual({ amount: 500, currency: 'JPY' });
    expect(fromStripeAmount(38_850, 'hkd', 2)).toEqual({ amount: 38_850, currency: 'HKD' });
  });

  it('refuses what Stripe cannot charge', () => {
    // We would count JPY in hundredths only by mistake; Stripe has no sen.
    expect(() => toStripeAmount({ amount: 50_050, currency: 'JPY' }, 2)).toThrow(/more decimals/);
    expect(toStripeAmount({ amount: 50_000, currency: 'JPY' }, 2)).toEqual({ amount: 500, currency: 'jpy' });
    expect(() => toStripeAmount({ amount: 5_125, currency: 'KWD' }, 3)).toThrow(/end in 0/);
    expect(() => toStripeAmount({ amount: -1, currency: 'HKD' }, 2)).toThrow(/not a payable amount/);
  });
});

describe('methods a Stripe account can take', () => {
  it('takes cards in every currency', () => {
    for (const currency of ['HKD', 'TWD', 'IDR', 'VND', 'MOP']) expect(stripeSupports('visa', currency, 'HK')).toBe(true);
  });

  it('takes WeChat Pay and Alipay only in their currencies', () => {
    expect(stripeSupports('wechat_pay', 'HKD', 'HK')).toBe(true);
    expect(stripeSupports('wechat_pay', 'TWD', 'HK')).toBe(false);
    expect(stripeSupports('alipay', 'MYR', 'HK')).toBe(true);
    expect(stripeSupports('alipay', 'THB', 'HK')).toBe(false);
  });

  it('offers no PayPal to a Hong Kong account, and PayNow only to a Singapore one in SGD', () => {
    expect(stripeSupports('paypal', 'HKD', 'HK')).toBe(false);
    expect(stripeSupports('paypal', 'USD', 'GB')).toBe(true);
    expect(stripeSupports('paynow', 'SGD', 'HK')).toBe(false);
    expect(stripeSupports('paynow', 'SGD', 'SG')).toBe(true);
    expect(stripeSupports('paynow', 'USD', 'SG')).toBe(false);
  });
});

describe('the Checkout page language', () => {
  it('follows ours, Simplified Chinese as zh', () => {
    expect(stripeLocale('zh-HK')).toBe('zh-HK');
    expect(stripeLocale('zh-TW')).toBe('zh-TW');
    expect(stripeLocale('zh-CN')).toBe('zh');
    expect(stripeLocale('en')).toBe('en');
  });
});

describe('stripeSignatureTime', () => {
  it('reads the signing time of a Stripe-Signature header, in ms', () => {
    expect(stripeSignatureTime('t=1700000000,v1=abc,v0=def')).toBe(1_700_000_000_000);
    expect(stripeSignatureTime('v1=abc, t=1700000000')).toBe(1_700_000_000_000);
  });

  it('is null without a time', () => {
    expect(stripeSignatureTime('v1=abc')).toBeNull();
    expect(stripeSignatureTime('t=soon,v1=abc')).toBeNull();
  });
});
