import { describe, expect, it } from 'vitest';
import { PAYMENT_METHODS } from '../../src/lib/domain/payment-methods.ts';
import { ORDER_STATUSES } from '../../src/lib/domain/order-state.ts';
import {
  isPaidStatus,
  isPaymentMethod,
  isQrMethod,
  paymentStatusOf,
  payPageFor,
  payPagePath,
  reportedMoneyMatches,
  type PaymentStatus,
} from '../../src/lib/domain/payment-outcome.ts';

describe('payment methods', () => {
  it('pays WeChat Pay and Alipay by QR code and every other method on a new page', () => {
    expect(PAYMENT_METHODS.filter(isQrMethod)).toEqual(['alipay', 'wechat_pay']);
    expect(isQrMethod('visa')).toBe(false);
  });

  it('knows only the configured methods', () => {
    expect(isPaymentMethod('unionpay')).toBe(true);
    expect(isPaymentMethod('bitcoin')).toBe(false);
    expect(isPaymentMethod(7)).toBe(false);
  });
});

describe('payment status', () => {
  it('records a pending provider payment as created and keeps final ones', () => {
    expect(paymentStatusOf('pending')).toBe('created');
    expect(paymentStatusOf('succeeded')).toBe('succeeded');
    expect(paymentStatusOf('failed')).toBe('failed');
    expect(paymentStatusOf('cancelled')).toBe('cancelled');
    expect(paymentStatusOf('refunded')).toBe('refunded');
  });

  it('counts an order as paid from pending ticketing on, refunded included', () => {
    expect(ORDER_STATUSES.filter(isPaidStatus)).toEqual(['pending_ticketing', 'pending_receipt', 'completed', 'refunded']);
  });
});

describe('payPageFor', () => {
  const statuses: (PaymentStatus | null)[] = [null, 'created', 'succeeded', 'failed', 'cancelled', 'refunded'];

  it('sends a paid order to success and a closed one to cancel, from every page', () => {
    for (const from of ['pay', 'returned', 'success', 'fail', 'cancel'] as const) {
      for (const paymentStatus of statuses) {
        expect(payPageFor({ orderStatus: 'pending_ticketing', paymentStatus }, from)).toBe('success');
        expect(payPageFor({ orderStatus: 'completed', paymentStatus }, from)).toBe('success');
        expect(payPageFor({ orderStatus: 'cancelled', paymentStatus }, from)).toBe('cancel');
      }
    }
  });

  it('shows how the payment ended when the provider returns to an unpaid order', () => {
    expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus: 'failed' }, 'returned')).toBe('fail');
    expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus: 'cancelled' }, 'returned')).toBe('cancel');
    expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus: 'created' }, 'returned')).toBe('pay');
    expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus: null }, 'returned')).toBe('pay');
  });

  it('keeps an unpaid order on its payment page, and elsewhere shows how its latest payment ended', () => {
    for (const paymentStatus of statuses) expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus }, 'pay')).toBe('pay');
    for (const from of ['success', 'fail', 'cancel'] as const) {
      expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus: 'failed' }, from)).toBe('fail');
      expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus: 'cancelled' }, from)).toBe('cancel');
      expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus: 'created' }, from)).toBe('pay');
      expect(payPageFor({ orderStatus: 'pending_payment', paymentStatus: null }, from)).toBe('pay');
    }
  });

  it('builds the path of each page of an order', () => {
    expect(payPagePath('pay', 7)).toBe('/order/7/pay');
    expect(payPagePath('success', 7)).toBe('/paySuccess?orderId=7');
    expect(payPagePath('fail', 7)).toBe('/payFail?orderId=7');
    expect(payPagePath('cancel', 7)).toBe('/payCancel?orderId=7');
  });
});

describe('reportedMoneyMatches', () => {
  it('settles only on the same amount in the same currency (any letter case)', () => {
    expect(reportedMoneyMatches({ amount: 50_000, currency: 'HKD' }, { amount: 50_000, currency: 'hkd' })).toBe(true);
    expect(reportedMoneyMatches({ amount: 50_000, currency: 'HKD' }, { amount: 49_999, currency: 'HKD' })).toBe(false);
    expect(reportedMoneyMatches({ amount: 50_000, currency: 'HKD' }, { amount: 50_000, currency: 'USD' })).toBe(false);
  });
});
