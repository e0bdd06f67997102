import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { HomeConfig, CityView } from '../../src/lib/services/catalogue/catalogue.ts';
import { call, seed } from './helpers.ts';

beforeAll(() => seed());

describe('GET /api/ (home config)', () => {
  it('returns the envelope with banners, categories and priced cards for Hong Kong', async () => {
    const { status, body } = await call<HomeConfig>('/api/');
    expect(status).toBe(200);
    expect(body).toMatchObject({ code: 200, message: '' });
    const home = body.data;
    expect(home.currentCity).toMatchObject({ cityId: 341, cityEnName: 'Hong Kong' });
    expect(home.banners.length).toBeGreaterThan(0);
    expect(home.categories.length).toBeGreaterThanOrEqual(8);
    expect(home.tkd.title).toContain('TicketWing');
    const cards = [...home.rareActivities, ...home.discountActivities];
    expect(cards.length).toBeGreaterThan(0);
    for (const card of cards) {
      expect(card.currency).toBe('HKD');
      expect(card.lowPriceView).toMatch(/^HK\$[\d,.]+\+$/);
    }
  });

  it('lists bargains only below face value, with the discount label of their fold', async () => {
    const { body } = await call<HomeConfig>('/api/');
    expect(body.data.discountActivities.length).toBeGreaterThan(0);
    for (const card of body.data.discountActivities) {
      // The fold compares the ticket price with face value; the card's lowPrice is all-in (service fee included).
      expect(card.discountRate!).toBeLessThan(10);
      expect(card.discountPercent).toBe(Math.floor(Number(((10 - card.discountRate!) * 10).toFixed(6))));
      expect(card.soldOut).toBe(false);
    }
  });

  it('lists at most ten bargains, deepest discount first', async () => {
    const { body } = await call<HomeConfig>('/api/');
    const folds = body.data.discountActivities.map((card) => card.discountRate!);
    expect(folds.length).toBeGreaterThan(1);
    expect(folds.length).toBeLessThanOrEqual(10);
    expect(folds).toEqual([...folds].sort((a, b) => a - b));
  });

  it('speaks the language and currency of the request headers', async () => {
    const { body } = await call<HomeConfig>('/api/', { headers: { language: 'zh-HK', currency: 'TWD' } });
    expect(body.data.currentCity.cityName).toBe('香港');
    const card = body.data.rareActivities[0] ?? body.data.discountActivities[0];
    expect(card.currency).toBe('TWD');
    expect(card.lowPriceView).not.toContain('HK$');
    const simplified = await call<HomeConfig>('/api/', { headers: { language: 'zh-CN' } });
    expect(simplified.body.data.categories.map((c) => c.name)).not.toEqual(body.data.categories.map((c) => c.name));
  });

  it('follows the city id header, and ignores it with ignoreCityId=true', async () => {
    const groups = await call<{ letter: string; cities: CityView[] }[]>('/api/v1/cities/active/group');
    const other = groups.body.data.flatMap((g) => g.cities).find((c) => c.cityId !== 341)!;
    const inOther = await call<HomeConfig>('/api/', { headers: { 'city-id': String(other.cityId) } });
    expect(inOther.body.data.currentCity.cityId).toBe(other.cityId);
    const ignored = await call<HomeConfig>('/api/?ignoreCityId=true', { headers: { 'city-id': String(other.cityId) } });
    expect(ignored.body.data.currentCity.cityId).toBe(341);
  });

  it('falls back to defaults on malformed headers and cookies', async () => {
    const { status, body } = await call<HomeConfig>('/api/', {
      headers: { language: '<script>', currency: 'EURO!', 'city-id': '1; DROP TABLE cities', cookie: 'cityId=%%%; currencyCode=' },
    });
    expect(status).toBe(200);
    expect(body.data.currentCity.cityId).toBe(341);
    expect(body.data.rareActivities[0]?.currency ?? 'HKD').toBe('HKD');
  });

  it('is served under the /api/api alias too', async () => {
    const direct = await call<HomeConfig>('/api/');
    const alias = await call<HomeConfig>('/api/api/');
    expect(alias.status).toBe(200);
    expect(alias.body.data.categories).toEqual(direct.body.data.categories);
  });
});

describe('languages and currencies', () => {
  it('lists the four languages', async () => {
    const { body } = await call<{ code: string; name: string; languageType: number }[]>('/api/v1/language/list');
    expect(body.data.map((l) => l.code)).toEqual(['en', 'zh-HK', 'zh-TW', 'zh-CN']);
  });

  it('lists currencies as { code, desc, currencyType }', async () => {
    const { body } = await call<{ code: string; desc: string; currencyType: number }[]>('/api/v1/currency/list');
    expect(body.data).toContainEqual(expect.objectContaining({ code: 'HKD', desc: expect.any(String), currencyType: expect.any(Number) }));
    expect(new Set(body.data.map((c) => c.code)).size).toBe(body.data.length);
    const chinese = await call<{ code: string; desc: string }[]>('/api/v1/currency/list', { headers: { language: 'zh-TW' } });
    expect(chinese.body.data.find((c) => c.code === 'TWD')?.desc).toBe('新台幣');
  });

  it('reports the current currency from header, then cookie, then HKD', async () => {
    expect((await call<{ code: string }>('/api/v1/currency')).body.data.code).toBe('HKD');
    expect((await call<{ code: string }>('/api/v1/currency', { headers: { currency: 'usd' } })).body.data.code).toBe('USD');
    expect((await call<{ code: string }>('/api/v1/currency', { headers: { cookie: 'currencyCode=SGD' } })).body.data.code).toBe('SGD');
    expect((await call<{ code: string }>('/api/api/v1/currency', { headers: { currency: 'XYZ' } })).body.data.code).toBe('HKD');
  });
});

describe('cities', () => {
  it('groups cities by first letter in order', async () => {
    const { body } = await call<{ letter: string; cities: CityView[] }[]>('/api/v1/cities/active/group', {
      headers: { language: 'zh-CN' },
    });
    const letters = body.data.map((g) => g.letter);
    expect(letters).toEqual([...letters].sort());
    const all = body.data.flatMap((g) => g.cities);
    expect(all.length).toBeGreaterThanOrEqual(12);
    for (const group of body.data) for (const city of group.cities) expect(city.firstLetter).toBe(group.letter);
    expect(all.find((c) => c.cityId === 341)?.cityName).toBe('香港');
  });

  it('lists only hot cities with ids above 0', async () => {
    const { body } = await call<CityView[]>('/api/v1/cities/hotCity');
    expect(body.data.length).toBeGreaterThan(0);
    for (const city of body.data) {
      expect(city.isHotCity).toBe(true);
      expect(city.cityId).toBeGreaterThan(0);
    }
  });
});

describe('the price on a card', () => {
  it('is the cheapest listing by value, a listing in another currency weighed at its rate', async () => {
    const home = async () => (await call<HomeConfig>('/api/')).body.data.rareActivities.find((card) => !card.soldOut)!;
    const before = await home();
    // A US-dollar listing whose number is half the HKD price but whose value is about four times it (1 HKD = 0.1285 USD).
    const { meta } = await env.DB.prepare(
      `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types)
       SELECT l.tier_id, l.seller_id, ?, 'USD', 5, 5, l.seating, l.delivery_types
       FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id
       WHERE s.activity_id = ? AND l.status = 'active' LIMIT 1`,
    )
      .bind(Math.floor(before.lowPrice! / 2), before.id)
      .run();
    // (meta.changes also counts the catalogue-version trigger's update.)
    const inserted = await env.DB.prepare('SELECT currency FROM listings WHERE id = ?')
      .bind(meta.last_row_id)
      .first<{ currency: string }>();
    expect(inserted?.currency).toBe('USD');
    try {
      const after = await home();
      expect(after.id).toBe(before.id);
      expect(after.lowPrice).toBe(before.lowPrice);
    } finally {
      await env.DB.prepare('DELETE FROM listings WHERE id = ?').bind(meta.last_row_id).run();
    }
  });
});
