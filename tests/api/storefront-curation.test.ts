/**
 * Storefront curation from the console: an editor schedules a city's banner, adds a hot search word,
 * retires a pop-up box, runs a coupon campaign and a lottery; buyers' reads show each only while it
 * is live; customer service and buyers are refused; every change leaves its audit row.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_DATA_TTL_MS } from '../../src/lib/config/caching.ts';
import { database } from '../../src/lib/data/client.ts';
import { homeConfig } from '../../src/lib/services/catalogue/catalogue.ts';
import { popBoxes } from '../../src/lib/services/catalogue/popups.ts';
import { catalogueVersions, referenceData } from '../../src/lib/services/catalogue/reference-data.ts';
import { listHotKeywords } from '../../src/lib/services/search/hot-keywords.ts';
import { type TestClient, signedInClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { userScope } from './shop.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let editor: TestClient;
let editorId: number;
let service: TestClient;
let buyers: TestClient[];
let cityId: number;

const idOf = (client: TestClient) => Number(client.cookies.get('pnid'));

async function grant(client: TestClient, role: string): Promise<void> {
  await env.DB.prepare('INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, ?, 0)').bind(idOf(client), role).run();
}

const put = <T>(client: TestClient, path: string, body: unknown) => client.call<T>(path, { method: 'PUT', body });

async function auditOf(subjectType: string, subjectId: number) {
  const { results } = await env.DB.prepare(
    'SELECT actor_id, action, before_json, after_json FROM audit_log WHERE subject_type = ?1 AND subject_id = ?2 ORDER BY id',
  )
    .bind(subjectType, String(subjectId))
    .all<{ actor_id: number; action: string; before_json: string | null; after_json: string | null }>();
  return results.map((row) => ({
    actorId: row.actor_id,
    action: row.action,
    before: row.before_json === null ? null : JSON.parse(row.before_json),
    after: row.after_json === null ? null : JSON.parse(row.after_json),
  }));
}

/** A page's scope for a buyer in `city` at `now`, with the reference tables as a page checks them. */
async function scopeAt(now: number, city = cityId) {
  const base = await userScope(idOf(buyers[0]));
  const db = database(env.DB);
  const reference = await referenceData(db, now, (await catalogueVersions(db)).reference);
  return { ...base, now, reference, ctx: { ...base.ctx, cityId: city } };
}

const tkd = { title: '', keywords: '', description: '' };

beforeAll(async () => {
  await seed();
  editor = await signedInClient('sf-editor');
  editorId = idOf(editor);
  await grant(editor, 'editor');
  service = await signedInClient('sf-service');
  await grant(service, 'customer_service');
  buyers = [await signedInClient('sf-buyer'), await signedInClient('sf-buyer'), await signedInClient('sf-buyer')];
  const city = await env.DB.prepare('SELECT id FROM cities WHERE id <> 341 ORDER BY id LIMIT 1').first<{ id: number }>();
  cityId = city!.id;
});

describe('who may curate', () => {
  it('refuses customer service (staff_role_forbidden) and buyers (not_staff) on every kind', async () => {
    for (const kind of ['banners', 'hot-searches', 'popups', 'coupon-campaigns', 'lotteries']) {
      expect((await service.call(`/api/v1/operator/${kind}`)).body).toMatchObject({ code: 403, errorCode: 'staff_role_forbidden' });
      expect((await service.post(`/api/v1/operator/${kind}/1/retire`, {})).body).toMatchObject({
        code: 403,
        errorCode: 'staff_role_forbidden',
      });
      expect((await buyers[0].call(`/api/v1/operator/${kind}`)).body).toMatchObject({ code: 403, errorCode: 'not_staff' });
    }
  });
});

describe('home banners', () => {
  it('show on their city’s home only within their window, and not once retired', async () => {
    const now = Date.now();
    const body = {
      cityId,
      poster: '/images/banner/curated.jpg',
      url: '/activity/1000',
      sort: 0,
      startsAt: now + HOUR,
      endsAt: now + 2 * HOUR,
    };
    const created = await editor.post<{ id: number; state: string }>('/api/v1/operator/banners', body);
    expect(created.body, created.text).toMatchObject({ code: 200, data: { state: 'scheduled', poster: body.poster } });
    const { id } = created.body.data;
    const shows = async (at: number, city = cityId) =>
      (await homeConfig(await scopeAt(at, city), tkd)).banners.some((banner) => banner.poster === body.poster);
    expect(await shows(now)).toBe(false);
    expect(await shows(now + 1.5 * HOUR)).toBe(true);
    expect(await shows(now + 1.5 * HOUR, 341)).toBe(false);
    expect(await shows(now + 2 * HOUR)).toBe(false);
    const home = await editor.call<{ banners: { poster: string }[] }>('/api/', { headers: { 'city-id': String(cityId) } });
    expect(home.body.data.banners.map((banner) => banner.poster)).not.toContain(body.poster);

    const retired = await editor.post(`/api/v1/operator/banners/${id}/retire`, {});
    expect(retired.body).toMatchObject({ code: 200, data: { state: 'retired' } });
    expect(await shows(now + 1.5 * HOUR)).toBe(false);
    expect((await put(editor, `/api/v1/operator/banners/${id}`, body)).body).toMatchObject({
      code: 409,
      errorCode: 'storefront_item_retired',
    });

    const audit = await auditOf('banner', id);
    expect(audit.map((row) => row.action)).toEqual(['banner.create', 'banner.retire']);
    expect(audit[0]).toMatchObject({ actorId: editorId, before: null, after: { id, cityId, poster: body.poster, retiredAt: null } });
    expect(audit[1].before).toMatchObject({ retiredAt: null });
    expect(audit[1].after.retiredAt).toBeGreaterThan(0);
  });

  it('refuse an end before the start, a link off the site, and a city that does not exist, naming the field', async () => {
    const now = Date.now();
    const body = { cityId, poster: '/images/banner/x.jpg', url: '/', sort: 0, startsAt: now, endsAt: now - HOUR };
    expect((await editor.post('/api/v1/operator/banners', body)).body).toMatchObject({
      code: 400,
      errorCode: 'schedule_end_before_start',
      field: 'endsAt',
    });
    expect((await editor.post('/api/v1/operator/banners', { ...body, endsAt: null, url: '//evil.example' })).body).toMatchObject({
      code: 400,
      errorCode: 'storefront_link_invalid',
      field: 'url',
    });
    expect((await editor.post('/api/v1/operator/banners', { ...body, endsAt: null, cityId: 999_999 })).body).toMatchObject({
      errorCode: 'city_not_found',
      field: 'cityId',
    });
    expect((await editor.post('/api/v1/operator/banners', { ...body, sort: 'first' })).body).toMatchObject({ code: 400, field: 'sort' });
  });
});

describe('hot searches', () => {
  it('reach pages at once (the reference version) and API answers within REFERENCE_DATA_TTL_MS; retired, they go', async () => {
    const now = Date.now();
    const keyword = 'Curated Word';
    const created = await editor.post<{ id: number }>('/api/v1/operator/hot-searches', {
      locale: 'en',
      keyword,
      content: '',
      sort: 0,
      startsAt: now - 1000,
      endsAt: null,
    });
    expect(created.body, created.text).toMatchObject({ code: 200, data: { state: 'live' } });
    const words = async (at: number) => listHotKeywords((await scopeAt(at)).reference, 'en', at).map((word) => word.keyword);
    expect(await words(now)).toContain(keyword);
    expect(listHotKeywords((await scopeAt(now)).reference, 'zh-HK', now).map((word) => word.keyword)).not.toContain(keyword);
    // An API answer reads no version: its copy is at most REFERENCE_DATA_TTL_MS old.
    const db = database(env.DB);
    const apiCopy = await referenceData(db, now + REFERENCE_DATA_TTL_MS, null);
    expect(listHotKeywords(apiCopy, 'en', now).map((word) => word.keyword)).toContain(keyword);

    await editor.post(`/api/v1/operator/hot-searches/${created.body.data.id}/retire`, {});
    expect(await words(now)).not.toContain(keyword);
    expect((await auditOf('hot_search', created.body.data.id)).map((row) => row.action)).toEqual([
      'hot_search.create',
      'hot_search.retire',
    ]);
  });

  it('show a scheduled word from its start, without a reload', async () => {
    const now = Date.now();
    const keyword = 'Tomorrow Word';
    await editor.post('/api/v1/operator/hot-searches', { locale: 'en', keyword, content: '', sort: 1, startsAt: now + DAY, endsAt: null });
    const scope = await scopeAt(now);
    expect(listHotKeywords(scope.reference, 'en', now).map((word) => word.keyword)).not.toContain(keyword);
    expect(listHotKeywords(scope.reference, 'en', now + DAY).map((word) => word.keyword)).toContain(keyword);
  });
});

describe('pop-up boxes', () => {
  it('show on the home scene while live; retired, they are gone', async () => {
    const now = Date.now();
    const texts = { en: 'Curated box', 'zh-Hant': '精選彈出框', 'zh-Hans': '精选弹出框' };
    const created = await editor.post<{ id: number }>('/api/v1/operator/popups', {
      title: texts,
      body: texts,
      link: '/couponList',
      currency: 'HKD',
      startsAt: now - 1000,
      endsAt: now + DAY,
    });
    expect(created.body, created.text).toMatchObject({ code: 200, data: { state: 'live', link: '/couponList' } });
    const { id } = created.body.data;
    const ids = async () => (await popBoxes(await scopeAt(Date.now()), ['HOME'])).map((box) => box.id);
    expect(await ids()).toContain(id);
    expect((await editor.post(`/api/v1/operator/popups/${id}/retire`, {})).body).toMatchObject({ code: 200, data: { state: 'retired' } });
    expect(await ids()).not.toContain(id);
    const answered = await buyers[0].call<{ id: number }[]>('/api/v1/popBox/list?sceneType=HOME');
    expect(answered.body.data.map((box) => box.id)).not.toContain(id);
    expect((await auditOf('popup', id)).map((row) => row.action)).toEqual(['popup.create', 'popup.retire']);
  });
});

describe('coupon campaigns', () => {
  const campaignBody = (now: number, claimLimit: number) => ({
    names: { en: 'Curated HK$50 off', 'zh-Hant': '精選減五十', 'zh-Hans': '精选减五十' },
    amount: 5_000,
    currency: 'HKD',
    minSpend: 30_000,
    validFrom: now - 1000,
    validTo: now + 30 * DAY,
    audience: 'all',
    cityId: null,
    claimLimit,
    startsAt: now - 1000,
    endsAt: now + 7 * DAY,
  });

  it('give buyers in the audience up to the count, once each; retired, no new claims, held coupons stay', async () => {
    const now = Date.now();
    const created = await editor.post<{ id: number }>('/api/v1/operator/coupon-campaigns', campaignBody(now, 2));
    expect(created.body, created.text).toMatchObject({ code: 200, data: { state: 'live', claimed: 0 } });
    const { id } = created.body.data;
    const offered = await buyers[0].call<{ id: number; claimed: boolean }[]>('/api/v1/coupon/campaigns');
    expect(offered.body.data).toContainEqual(expect.objectContaining({ id, claimed: false }));

    expect((await buyers[0].post(`/api/v1/coupon/campaigns/${id}/claim`, {})).body).toMatchObject({ code: 200 });
    expect((await buyers[0].post(`/api/v1/coupon/campaigns/${id}/claim`, {})).body).toMatchObject({
      code: 409,
      errorCode: 'coupon_already_claimed',
    });
    expect((await buyers[1].post(`/api/v1/coupon/campaigns/${id}/claim`, {})).body).toMatchObject({ code: 200 });
    expect((await buyers[2].post(`/api/v1/coupon/campaigns/${id}/claim`, {})).body).toMatchObject({
      code: 409,
      errorCode: 'coupon_campaign_exhausted',
    });
    expect((await buyers[2].call<{ id: number }[]>('/api/v1/coupon/campaigns')).body.data.map((c) => c.id)).not.toContain(id);

    // The held coupon's terms are locked; its count cannot go under the claims.
    const changed = await put(editor, `/api/v1/operator/coupon-campaigns/${id}`, { ...campaignBody(now, 2), amount: 4_000 });
    expect(changed.body).toMatchObject({ code: 409, errorCode: 'campaign_terms_locked', field: 'amount' });
    expect((await put(editor, `/api/v1/operator/coupon-campaigns/${id}`, campaignBody(now, 1))).body).toMatchObject({
      code: 409,
      errorCode: 'campaign_limit_below_claimed',
    });
    expect((await put(editor, `/api/v1/operator/coupon-campaigns/${id}`, campaignBody(now, 3))).body).toMatchObject({
      code: 200,
      data: { claimLimit: 3 },
    });

    expect((await editor.post(`/api/v1/operator/coupon-campaigns/${id}/retire`, {})).body).toMatchObject({
      data: { state: 'retired', claimed: 2 },
    });
    expect((await buyers[2].post(`/api/v1/coupon/campaigns/${id}/claim`, {})).body).toMatchObject({
      code: 409,
      errorCode: 'coupon_campaign_closed',
    });
    const held = await buyers[0].call<{ list: { name: string }[] }>('/api/v1/coupon/list?tab=usable');
    expect(JSON.stringify(held.body.data)).toContain('Curated HK$50 off');

    expect((await auditOf('coupon_campaign', id)).map((row) => row.action)).toEqual([
      'coupon_campaign.create',
      'coupon_campaign.update',
      'coupon_campaign.retire',
    ]);
  });

  it('refuse an amount not below the threshold, and a new buyers’ campaign to a buyer who paid', async () => {
    const now = Date.now();
    expect((await editor.post('/api/v1/operator/coupon-campaigns', { ...campaignBody(now, 5), amount: 30_000 })).body).toMatchObject({
      code: 400,
      errorCode: 'coupon_amount_not_below_threshold',
      field: 'amount',
    });
    const cityOnly = await editor.post<{ id: number }>('/api/v1/operator/coupon-campaigns', {
      ...campaignBody(now, 5),
      audience: 'city',
      cityId,
    });
    expect((await buyers[2].post(`/api/v1/coupon/campaigns/${cityOnly.body.data.id}/claim`, {})).body).toMatchObject({
      code: 403,
      errorCode: 'coupon_campaign_not_for_you',
    });
    const there = await buyers[2].call(`/api/v1/coupon/campaigns/${cityOnly.body.data.id}/claim`, {
      method: 'POST',
      body: {},
      headers: { 'city-id': String(cityId) },
    });
    expect(there.body).toMatchObject({ code: 200 });
  });
});

describe('lotteries', () => {
  it('take entries only within their window; the prize stays once entries opened; one with entries is not retired', async () => {
    const now = Date.now();
    const tier = await env.DB.prepare('SELECT tier_id FROM lotteries ORDER BY id LIMIT 1').first<{ tier_id: number }>();
    const plan = {
      tierId: tier!.tier_id,
      prizeCount: 2,
      ticketsPerPrize: 1,
      maxCodesPerEntry: 5,
      entryOpensAt: now + HOUR,
      entryClosesAt: now + 2 * HOUR,
      drawAt: now + DAY,
    };
    const created = await editor.post<{ id: number; seed?: string }>('/api/v1/operator/lotteries', plan);
    expect(created.body, created.text).toMatchObject({ code: 200, data: { state: 'scheduled', status: 'open' } });
    expect(created.body.data.seed).toBeUndefined();
    const { id } = created.body.data;
    expect((await buyers[0].post(`/api/v1/lotteries/${id}/join`, {})).body).toMatchObject({ code: 404, errorCode: 'lottery_not_found' });
    expect((await buyers[0].call<{ id: number }[]>('/api/v1/lotteries')).body.data.map((lottery) => lottery.id)).not.toContain(id);

    const opened = { ...plan, entryOpensAt: now - 1000 };
    expect((await put(editor, `/api/v1/operator/lotteries/${id}`, opened)).body).toMatchObject({ code: 200, data: { state: 'live' } });
    expect((await buyers[0].post(`/api/v1/lotteries/${id}/join`, {})).body).toMatchObject({ code: 200 });
    expect((await put(editor, `/api/v1/operator/lotteries/${id}`, { ...opened, prizeCount: 9 })).body).toMatchObject({
      code: 409,
      errorCode: 'lottery_prize_locked',
      field: 'prizeCount',
    });
    expect((await put(editor, `/api/v1/operator/lotteries/${id}`, { ...opened, drawAt: now - HOUR })).body).toMatchObject({ code: 400 });
    expect((await editor.post(`/api/v1/operator/lotteries/${id}/retire`, {})).body).toMatchObject({
      code: 409,
      errorCode: 'lottery_not_editable',
    });

    // Time passes the close of entries: a late entry is refused.
    await env.DB.prepare('UPDATE lotteries SET entry_closes_at = ?2 WHERE id = ?1')
      .bind(id, now - 1)
      .run();
    expect((await buyers[1].post(`/api/v1/lotteries/${id}/join`, {})).body).toMatchObject({ code: 409, errorCode: 'lottery_closed' });

    const audit = await auditOf('lottery', id);
    expect(audit.map((row) => row.action)).toEqual(['lottery.create', 'lottery.update']);
    expect(JSON.stringify(audit)).not.toContain('"seed"');
  });

  it('retires a lottery nobody entered: it never draws and buyers no longer see it', async () => {
    const now = Date.now();
    const tier = await env.DB.prepare('SELECT tier_id FROM lotteries ORDER BY id LIMIT 1').first<{ tier_id: number }>();
    const created = await editor.post<{ id: number }>('/api/v1/operator/lotteries', {
      tierId: tier!.tier_id,
      prizeCount: 1,
      ticketsPerPrize: 1,
      maxCodesPerEntry: 3,
      entryOpensAt: now - 1000,
      entryClosesAt: null,
      drawAt: now + DAY,
    });
    const { id } = created.body.data;
    expect((await buyers[0].call<{ id: number }[]>('/api/v1/lotteries')).body.data.map((lottery) => lottery.id)).toContain(id);
    expect((await editor.post(`/api/v1/operator/lotteries/${id}/retire`, {})).body).toMatchObject({
      code: 200,
      data: { state: 'retired' },
    });
    expect((await buyers[0].call<{ id: number }[]>('/api/v1/lotteries')).body.data.map((lottery) => lottery.id)).not.toContain(id);
    expect((await buyers[0].post(`/api/v1/lotteries/${id}/join`, {})).body).toMatchObject({ code: 404, errorCode: 'lottery_not_found' });
  });
});
