import { describe, expect, it } from 'vitest';
import {
  confirmSearch,
  formatCouponDate,
  ORDER_ID_SLOT,
  parseConfirmQuery,
  payHref,
  pickerHref,
  type ConfirmQuery,
} from '../../src/lib/domain/confirm-query.ts';

const parse = (search: string) => parseConfirmQuery(new URLSearchParams(search));

describe('parseConfirmQuery', () => {
  it('reads the listing and quantity the detail page sends, with nothing chosen yet', () => {
    expect(parse('listingId=42&quantity=2')).toEqual({
      listingId: 42,
      quantity: 2,
      deliveryType: null,
      paymentMethod: null,
      coupon: 'best',
      addressId: null,
      attendeeIds: [],
    });
  });

  it('reads every choice that survives the pickers', () => {
    expect(parse('listingId=7&quantity=3&deliveryType=courier&paymentMethod=alipay&coupon=12&addressId=5&attendeeIds=9,4,11')).toEqual({
      listingId: 7,
      quantity: 3,
      deliveryType: 'courier',
      paymentMethod: 'alipay',
      coupon: 12,
      addressId: 5,
      attendeeIds: [9, 4, 11],
    });
    expect(parse('listingId=7&quantity=1&coupon=none')?.coupon).toBe('none');
  });

  it('refuses a link without a usable listing or quantity', () => {
    for (const search of [
      '',
      'listingId=7',
      'quantity=2',
      'listingId=0&quantity=1',
      'listingId=abc&quantity=1',
      'listingId=7&quantity=0',
      'listingId=7&quantity=-1',
      'listingId=7&quantity=1.5',
      'listingId=7&quantity=1000',
      'listingId=12345678901&quantity=1',
    ]) {
      expect(parse(search), search).toBeNull();
    }
  });

  it('reads a choice it cannot use as not chosen', () => {
    const query = parse('listingId=7&quantity=1&deliveryType=drone&paymentMethod=cash&coupon=-3&addressId=x&attendeeIds=1,oops');
    expect(query).toMatchObject({ deliveryType: null, paymentMethod: null, coupon: 'best', addressId: null, attendeeIds: [] });
  });

  it('drops repeated attendees and refuses more than anyone can save', () => {
    expect(parse('listingId=7&quantity=2&attendeeIds=3,3,4')?.attendeeIds).toEqual([3, 4]);
    const many = Array.from({ length: 21 }, (_, i) => i + 1).join(',');
    expect(parse(`listingId=7&quantity=2&attendeeIds=${many}`)?.attendeeIds).toEqual([]);
  });
});

describe('confirmSearch', () => {
  const full: ConfirmQuery = {
    listingId: 7,
    quantity: 2,
    deliveryType: 'on_site',
    paymentMethod: 'visa',
    coupon: 'none',
    addressId: 5,
    attendeeIds: [9, 4],
  };

  it('writes what parseConfirmQuery reads back', () => {
    expect(parse(confirmSearch(full))).toEqual(full);
  });

  it('leaves out what was not chosen', () => {
    expect(confirmSearch({ ...full, deliveryType: null, paymentMethod: null, coupon: 'best', addressId: null, attendeeIds: [] })).toBe(
      'listingId=7&quantity=2',
    );
  });
});

describe('pickerHref', () => {
  it('opens a picker that returns to the page with every choice kept', () => {
    const back = `/zh-HK/order/confirm?${confirmSearch({ listingId: 7, quantity: 2, deliveryType: 'courier', paymentMethod: null, coupon: 3, addressId: null, attendeeIds: [] })}`;
    const href = pickerHref('/zh-HK/customer/list', back, { need: '2', venue: 'HK' });
    const url = new URL(href, 'http://same.site');
    expect(url.pathname).toBe('/zh-HK/customer/list');
    expect(url.searchParams.get('select')).toBe('1');
    expect(url.searchParams.get('return')).toBe(back);
    expect(url.searchParams.get('need')).toBe('2');
    expect(url.searchParams.get('venue')).toBe('HK');
  });
});

describe('payHref', () => {
  it('puts the new order id into the server-rendered pay path', () => {
    expect(payHref(`/zh-CN/order/${ORDER_ID_SLOT}/pay`, 321)).toBe('/zh-CN/order/321/pay');
  });
});

describe('formatCouponDate', () => {
  it('prints the day in Hong Kong time whatever the machine zone', () => {
    // 2026-03-31 17:00 UTC is already 1 April in Hong Kong.
    expect(formatCouponDate(Date.UTC(2026, 2, 31, 17), 'en')).toBe('04/01/2026');
    expect(formatCouponDate(Date.UTC(2026, 2, 31, 17), 'zh-CN')).toBe('2026/04/01');
  });
});
