import { describe, expect, it } from 'vitest';
import { buyerActions, isFinal, nextState, ORDER_EVENTS, ORDER_STATUSES, transitionOf } from '../../src/lib/domain/order-state.ts';

describe('order state machine', () => {
  it('follows the lifecycle of DESIGN.md', () => {
    expect(nextState('pending_payment', 'payment_confirmed')).toBe('pending_ticketing');
    expect(nextState('pending_ticketing', 'ticketed')).toBe('pending_receipt');
    expect(nextState('pending_receipt', 'receipt_confirmed')).toBe('completed');
    expect(nextState('pending_payment', 'user_cancelled')).toBe('cancelled');
    expect(nextState('pending_payment', 'payment_expired')).toBe('cancelled');
    expect(nextState('pending_ticketing', 'seller_failed')).toBe('refunded');
    expect(nextState('pending_receipt', 'event_cancelled')).toBe('refunded');
  });

  it('refunds every paid order of a cancelled show, and closes its unpaid ones', () => {
    for (const status of ['pending_ticketing', 'pending_receipt', 'completed'] as const) {
      expect(nextState(status, 'event_cancelled')).toBe('refunded');
      expect(nextState(status, 'postponement_refund')).toBe('refunded');
    }
    expect(nextState('pending_payment', 'event_cancelled_unpaid')).toBe('cancelled');
    expect(nextState('pending_payment', 'event_cancelled')).toBeNull();
    expect(nextState('refunded', 'postponement_refund')).toBeNull();
  });

  it('refuses every other move', () => {
    expect(nextState('pending_ticketing', 'user_cancelled')).toBeNull();
    expect(nextState('cancelled', 'payment_confirmed')).toBeNull();
    expect(nextState('pending_payment', 'ticketed')).toBeNull();
    expect(nextState('completed', 'seller_failed')).toBeNull();
    expect(nextState('pending_payment', 'receipt_confirmed')).toBeNull();
    let allowed = 0;
    for (const status of ORDER_STATUSES) for (const event of ORDER_EVENTS) if (nextState(status, event)) allowed += 1;
    expect(allowed).toBe(14);
  });

  it('knows the final states and what a buyer may do', () => {
    expect(ORDER_STATUSES.filter(isFinal)).toEqual(['cancelled', 'refunded']);
    expect(buyerActions('pending_payment')).toEqual({ pay: true, cancel: true, confirmReceipt: false });
    expect(buyerActions('pending_receipt')).toEqual({ pay: false, cancel: false, confirmReceipt: true });
    expect(buyerActions('completed')).toEqual({ pay: false, cancel: false, confirmReceipt: false });
    expect(transitionOf('seller_failed').from).toEqual(['pending_ticketing', 'pending_receipt']);
  });
});
