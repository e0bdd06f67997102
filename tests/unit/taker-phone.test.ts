import { describe, expect, it } from 'vitest';
import { ORDER_STATUSES } from '../../src/lib/domain/order-state.ts';
import { takerCodeKey, takerPhoneToConfirm } from '../../src/lib/domain/taker-phone.ts';

describe("a pickup taker's number to confirm", () => {
  const phone = '+852 91234567';

  it('is the number while the tickets are still to be collected and it is unconfirmed', () => {
    const confirmable = ORDER_STATUSES.filter((status) => takerPhoneToConfirm({ status, takerPhone: phone, takerPhoneConfirmedAt: null }));
    expect(confirmable).toEqual(['pending_payment', 'pending_ticketing', 'pending_receipt']);
  });

  it('is none once confirmed, or for an order without a taker', () => {
    expect(takerPhoneToConfirm({ status: 'pending_receipt', takerPhone: phone, takerPhoneConfirmedAt: 1 })).toBeNull();
    expect(takerPhoneToConfirm({ status: 'pending_receipt', takerPhone: null, takerPhoneConfirmedAt: null })).toBeNull();
  });

  it("keys its code by the order, so one order's code never confirms another's", () => {
    expect(takerCodeKey(7, phone)).not.toBe(takerCodeKey(8, phone));
  });
});
