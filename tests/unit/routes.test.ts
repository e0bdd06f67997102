import { describe, expect, it } from 'vitest';
import { pathTo, ROUTES, routeFor } from '../../src/lib/routes.ts';
import { catalogues } from '../../src/lib/i18n/index.ts';

describe('routeFor', () => {
  it('finds the spec routes with their auth flag', () => {
    expect(routeFor('/')).toMatchObject({ name: 'homePage', auth: false });
    expect(routeFor('/orders')).toMatchObject({ name: 'orderListPage', auth: true });
    expect(routeFor('/orders/42')).toMatchObject({ name: 'orderDetailPage', auth: true });
    expect(routeFor('/order/42/pay')).toMatchObject({ name: 'orderPayPage', auth: true });
    expect(routeFor('/address_list/')).toMatchObject({ name: 'addressListPage', auth: true });
    expect(routeFor('/voucher')).toMatchObject({ name: 'voucherPage', auth: false });
  });

  it('sends other paths to the catch-all: /s_ is search, the rest a category list', () => {
    expect(routeFor('/concerts/s_jay')).toMatchObject({ name: 'activityListPage', auth: false });
    expect(routeFor('/concerts')).toMatchObject({ name: 'categoryPage', auth: false });
    expect(routeFor('/orders/1/extra')).toMatchObject({ name: 'categoryPage' });
  });

  it('shows the home notice bar and hides header and footer on login', () => {
    expect(routeFor('/').flags.noticeBar).toBe(true);
    expect(routeFor('/login').flags).toMatchObject({ header: false, footer: false });
  });
});

describe('route table', () => {
  it('has a title in the catalogue for every route name', () => {
    const names = new Set([...ROUTES.map((r) => r.name), 'categoryPage', 'activityListPage']);
    for (const name of names) expect(catalogues.en, name).toHaveProperty([`title.${name}`]);
  });

  it('fills parameters when building paths', () => {
    expect(pathTo('orderDetailPage', { id: 7 })).toBe('/orders/7');
    expect(pathTo('orderPayPage', { id: 'a b' })).toBe('/order/a%20b/pay');
    // @ts-expect-error an unknown name is a type error; forced through, it throws.
    expect(() => pathTo('nope')).toThrow();
  });
});
