import { describe, expect, it } from 'vitest';
import { ORDER_KEYWORD_MAX_LENGTH } from '../../src/lib/config/orders.ts';
import { ORDER_STATUSES } from '../../src/lib/domain/order-state.ts';
import { catalogues } from '../../src/lib/i18n/index.ts';
import {
  formatOrderTime,
  formatTimeLeft,
  orderListSearch,
  pageCount,
  parseOrderId,
  parseOrderListQuery,
  statusKeys,
} from '../../src/lib/domain/order-pages.ts';

const parse = (search: string) => parseOrderListQuery(new URLSearchParams(search));

describe('parseOrderListQuery', () => {
  it('reads tab, keyword and page', () => {
    expect(parse('tab=pending_receipt&keyword=Kelvin&page=3')).toEqual({ tab: 'pending_receipt', keyword: 'Kelvin', page: 3 });
  });

  it('defaults to every order, no search, page 1', () => {
    expect(parse('')).toEqual({ tab: 'all', keyword: '', page: 1 });
  });

  it('reads an unknown tab or an unusable page as the default', () => {
    expect(parse('tab=shipped').tab).toBe('all');
    expect(parse('tab=ALL').tab).toBe('all');
    for (const page of ['0', '-2', '1.5', 'two', '99999', '']) expect(parse(`page=${page}`).page, page).toBe(1);
    expect(parse('page=1000').page).toBe(1000);
  });

  it('trims the keyword, collapses its spaces and keeps at most the longest search', () => {
    expect(parse('keyword=%20%20Hong%20%20%20Kong%20').keyword).toBe('Hong Kong');
    expect(parse(`keyword=${'演'.repeat(ORDER_KEYWORD_MAX_LENGTH + 9)}`).keyword).toBe('演'.repeat(ORDER_KEYWORD_MAX_LENGTH));
    expect(parse('keyword=%20%20').keyword).toBe('');
  });
});

describe('orderListSearch', () => {
  it('leaves out defaults and round-trips through parseOrderListQuery', () => {
    expect(orderListSearch({ tab: 'all', keyword: '', page: 1 })).toBe('');
    const query = { tab: 'cancelled', keyword: '劉嘉朗 & co', page: 2 } as const;
    const search = orderListSearch(query);
    expect(search).toBe('?tab=cancelled&keyword=%E5%8A%89%E5%98%89%E6%9C%97+%26+co&page=2');
    expect(parse(search.slice(1))).toEqual(query);
  });
});

describe('pageCount', () => {
  it('is at least one and rounds up', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
  });
});

describe('formatTimeLeft', () => {
  it('counts whole seconds up, as minutes and seconds, with hours when needed', () => {
    expect(formatTimeLeft(15 * 60_000)).toBe('15:00');
    expect(formatTimeLeft(61_001)).toBe('01:02');
    expect(formatTimeLeft(999)).toBe('00:01');
    expect(formatTimeLeft(3_600_000 + 5_000)).toBe('1:00:05');
  });

  it('never goes below zero', () => {
    expect(formatTimeLeft(0)).toBe('00:00');
    expect(formatTimeLeft(-5_000)).toBe('00:00');
  });
});

describe('formatOrderTime', () => {
  it('shows the platform zone with its offset, whatever zone the server runs in', () => {
    const at = Date.UTC(2026, 10, 21, 6, 5);
    expect(formatOrderTime(at, 'en')).toBe('11/21/2026, 14:05 GMT+8');
    expect(formatOrderTime(at, 'zh-CN')).toContain('14:05');
    expect(formatOrderTime(at, 'zh-CN')).toContain('2026/11/21');
  });
});

describe('statusKeys', () => {
  it('adds the payment sub-state only while the order is unpaid', () => {
    expect(statusKeys('pending_payment', null)).toEqual(['orders.tab.pending_payment']);
    expect(statusKeys('pending_payment', 'confirming')).toEqual(['orders.tab.pending_payment', 'orders.substatus.confirming']);
    expect(statusKeys('cancelled', 'paying')).toEqual(['orders.tab.cancelled']);
  });

  it('names keys the catalogues have, for every status and sub-state', () => {
    const keys = ORDER_STATUSES.flatMap((status) => [...statusKeys(status, 'paying'), ...statusKeys(status, 'confirming')]);
    for (const key of keys) expect(catalogues.en[key], key).toBeTruthy();
  });
});

describe('parseOrderId', () => {
  it('reads an order id from a URL', () => {
    expect(parseOrderId('1')).toBe(1);
    expect(parseOrderId('2147483647')).toBe(2_147_483_647);
  });

  it('refuses what cannot be an order id', () => {
    for (const raw of [null, undefined, '', '0', '01', '-1', '1.5', '1e3', 'abc', '2147483648', '99999999999'])
      expect(parseOrderId(raw), String(raw)).toBeNull();
  });
});
