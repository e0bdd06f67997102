import { describe, expect, it } from 'vitest';
import { fulfilmentProblem, methodSuits } from '../../src/lib/domain/fulfilment.ts';

const showAt = Date.UTC(2026, 11, 24, 12);
const order = (deliveryType: 'e_ticket' | 'on_site' | 'self_pickup' | 'courier', quantity = 2) => ({
  deliveryType,
  quantity,
  sessionStartsAt: showAt,
});

describe('methodSuits', () => {
  it('lets an e-ticket deliver any order', () => {
    for (const type of ['e_ticket', 'on_site', 'self_pickup', 'courier'] as const) expect(methodSuits('e_ticket', type)).toBe(true);
  });

  it('ships only courier orders and hands out only pickup orders', () => {
    expect(methodSuits('courier', 'courier')).toBe(true);
    expect(methodSuits('courier', 'on_site')).toBe(false);
    expect(methodSuits('courier', 'e_ticket')).toBe(false);
    expect(methodSuits('pickup', 'on_site')).toBe(true);
    expect(methodSuits('pickup', 'self_pickup')).toBe(true);
    expect(methodSuits('pickup', 'courier')).toBe(false);
    expect(methodSuits('pickup', 'e_ticket')).toBe(false);
  });
});

describe('fulfilmentProblem', () => {
  it('accepts complete fulfilments', () => {
    expect(fulfilmentProblem({ method: 'e_ticket' }, order('e_ticket'))).toBeNull();
    expect(fulfilmentProblem({ method: 'e_ticket', seats: ['A1', 'A2'] }, order('courier'))).toBeNull();
    expect(fulfilmentProblem({ method: 'courier', trackingNo: 'SF1234567890' }, order('courier'))).toBeNull();
    expect(fulfilmentProblem({ method: 'pickup', pickupAddress: 'Gate 3', pickupTime: showAt - 3_600_000 }, order('on_site'))).toBeNull();
  });

  it('names the field of the first problem', () => {
    expect(fulfilmentProblem({ method: 'courier', trackingNo: 'SF1' }, order('e_ticket'))).toEqual({
      problem: 'fulfilment_method_mismatch',
      field: 'method',
    });
    expect(fulfilmentProblem({ method: 'courier' }, order('courier'))).toEqual({ problem: 'tracking_no_required', field: 'trackingNo' });
    expect(fulfilmentProblem({ method: 'pickup', pickupAddress: '  ', pickupTime: showAt - 1 }, order('self_pickup'))).toEqual({
      problem: 'pickup_address_required',
      field: 'pickupAddress',
    });
    expect(fulfilmentProblem({ method: 'pickup', pickupAddress: 'Gate 3' }, order('on_site'))).toEqual({
      problem: 'pickup_time_required',
      field: 'pickupTime',
    });
    expect(fulfilmentProblem({ method: 'e_ticket', seats: ['A1'] }, order('e_ticket'))).toEqual({
      problem: 'seats_count_mismatch',
      field: 'seats',
    });
  });

  it('refuses a pickup that starts at or after the show', () => {
    expect(fulfilmentProblem({ method: 'pickup', pickupAddress: 'Gate 3', pickupTime: showAt }, order('on_site'))).toEqual({
      problem: 'pickup_after_show',
      field: 'pickupTime',
    });
  });
});
