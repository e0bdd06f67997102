/** The refund preview's rules: buyers masked, refunds summed per currency with the cancellation's own rule. */
import { describe, expect, it } from 'vitest';
import { maskedContact, maskedName, refundTotals } from '../../src/lib/domain/refund-preview.ts';

describe('maskedName', () => {
  it('keeps the first and last characters, whole characters in any script', () => {
    expect(maskedName('Chan Tai Man')).toBe('C**********n');
    expect(maskedName('陳大文')).toBe('陳*文');
    expect(maskedName('李明')).toBe('李*');
    expect(maskedName('A')).toBe('*');
  });
});

describe('maskedContact', () => {
  it('shows a phone’s last four digits, else an email’s first character and domain', () => {
    expect(maskedContact({ phone: '91234567', email: 'a@b.c' })).toBe('****4567');
    expect(maskedContact({ phone: null, email: 'chan@example.com' })).toBe('c***@example.com');
    expect(maskedContact({ phone: null, email: null })).toBeNull();
  });
});

describe('refundTotals', () => {
  it('sums what was paid and what comes back per currency, never across them', () => {
    expect(
      refundTotals([
        { currency: 'HKD', total: 100_00, serviceFee: 8_00, postage: 0 },
        { currency: 'TWD', total: 2000, serviceFee: 100, postage: 60 },
        { currency: 'HKD', total: 50_00, serviceFee: 4_00, postage: 30_00 },
      ]),
    ).toEqual([
      { currency: 'HKD', orders: 2, paid: 150_00, refund: 92_00 + 16_00 },
      { currency: 'TWD', orders: 1, paid: 2000, refund: 1840 },
    ]);
  });
});
