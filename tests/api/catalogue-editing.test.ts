/**
 * Editors stock the catalogue from the console: a venue, an activity with two sessions and three
 * tiers, published to buyers (search in Traditional Chinese, the listing, the detail) and unpublished
 * again (gone from all three, while staff still preview it); each change leaves its audit row, and a
 * published edit moves the catalogue version that keys every shared page.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import { localDate } from '../../src/lib/domain/calendar.ts';
import { activityOrPreview } from '../../src/lib/loaders/activity.ts';
import type { ListResponse } from '../../src/lib/services/catalogue/listing.ts';
import { catalogueVersions } from '../../src/lib/services/catalogue/reference-data.ts';
import type { Suggestion } from '../../src/lib/services/search/suggestions.ts';
import { signedInClient, type TestClient } from './auth-client.ts';
import { call, seed } from './helpers.ts';
import { userScope } from './shop.ts';

const DAY = 86_400_000;
const HONG_KONG = 341;
/** Beyond the demo's sessions (180 days), so the listing of its day holds this show alone. */
const FIRST_SHOW = Date.now() + 200 * DAY;
const NAME = { en: 'Harbour Lights Gala', zhHant: '海港燈影音樂會', zhHans: '海港灯影音乐会' };

let editor: TestClient;
let service: TestClient;
let editorId: number;
/** The seller account that sells the show's tiers (services/catalogue-editing/box-office.ts). */
let boxOffice: number;

async function grant(client: TestClient, role: string): Promise<number> {
  const userId = Number(client.cookies.get('pnid'));
  await env.DB.prepare('INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, ?, 0)').bind(userId, role).run();
  return userId;
}

const patch = <T>(client: TestClient, path: string, body: unknown) => client.call<T>(path, { method: 'PATCH', body });

const search = (keyword: string) =>
  call<ListResponse>(`/api/v1/list/s_${encodeURIComponent(keyword)}?ignoreCityId=true`, { headers: { language: 'zh-HK' } });
const listingOfDay = () => {
  const day = localDate(FIRST_SHOW, 'Asia/Hong_Kong');
  return call<ListResponse>(`/api/v1/list/all?from=${day}&to=${day}`, { headers: { 'city-id': String(HONG_KONG) } });
};
const suggestions = (typed: string) =>
  call<Suggestion[]>(`/api/v1/activities/suggest?input=${encodeURIComponent(typed)}&ignoreCityId=true`, { headers: { language: 'zh-HK' } });

async function auditActions(subjectType: string, subjectId: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    'SELECT action, actor_id AS actor FROM audit_log WHERE subject_type = ? AND subject_id = ? ORDER BY id',
  )
    .bind(subjectType, String(subjectId))
    .all<{ action: string; actor: number }>();
  for (const row of results) expect(row.actor).toBe(editorId);
  return results.map((row) => row.action);
}

beforeAll(async () => {
  await seed();
  editor = await signedInClient('catalogue-editor');
  editorId = await grant(editor, 'editor');
  service = await signedInClient('catalogue-service');
  boxOffice = (await env.DB.prepare('SELECT id FROM users WHERE is_seller = 1 ORDER BY id LIMIT 1').first<{ id: number }>())!.id;
  await grant(service, 'customer_service');
});

const venueBody = {
  cityId: HONG_KONG,
  names: { en: 'Harbour Hall', zhHant: '海港廳', zhHans: '海港厅' },
  addressEn: '1 Harbour Road, Wan Chai',
  addressZh: '灣仔港灣道1號',
  mapUrl: 'https://maps.example.com/harbour-hall',
  longitude: 114.17,
  latitude: 22.28,
};

const sessionBody = (startsAt: number) => ({
  startsAt,
  endsAt: startsAt + 3 * 3_600_000,
  onSaleAt: Date.now() - DAY,
  offSaleAt: startsAt - 3_600_000,
  accountTicketCap: 4,
  highDemand: false,
});

const tierBody = (en: string, faceValue: number) => ({
  names: { en, zhHant: `${en}票`, zhHans: `${en}票` },
  faceValue,
  currency: 'HKD',
  quota: 100,
});

describe('an editor stocks, publishes and unpublishes an activity', () => {
  let activityId: number;
  let venueId: number;
  const sessionIds: number[] = [];
  const tierIds: number[] = [];

  it('creates a venue and a draft activity with two sessions and three tiers, which no buyer sees', async () => {
    const venue = await editor.post<{ id: number; mapUrl: string }>('/api/v1/operator/venues', venueBody);
    expect(venue.status, venue.text).toBe(200);
    venueId = venue.body.data.id;
    expect(venue.body.data.mapUrl).toBe(venueBody.mapUrl);

    const category = await env.DB.prepare("SELECT id FROM categories WHERE slug = 'concerts'").first<{ id: number }>();
    const activity = await editor.post<{ id: number; status: number }>('/api/v1/operator/activities', {
      categoryId: category!.id,
      cityId: HONG_KONG,
      venueId,
      artistId: null,
      boxOfficeSellerId: boxOffice,
      names: NAME,
      descriptions: { en: 'An evening by the water.', zhHant: '海邊的一晚。', zhHans: '海边的一晚。' },
      buyingNotes: { en: 'Doors open an hour early.', zhHant: '提前一小時入場。', zhHans: '提前一小时入场。' },
      realNameRequired: false,
      poster: '',
      saleStatus: 1,
      numMax: 6,
    });
    expect(activity.status, activity.text).toBe(200);
    activityId = activity.body.data.id;
    expect(activity.body.data.status).toBe(0);

    for (const startsAt of [FIRST_SHOW, FIRST_SHOW + DAY]) {
      const session = await editor.post<{ id: number }>(`/api/v1/operator/activities/${activityId}/sessions`, sessionBody(startsAt));
      expect(session.status, session.text).toBe(200);
      sessionIds.push(session.body.data.id);
    }
    for (const [sessionId, en, faceValue] of [
      [sessionIds[0], 'Stalls', 88_000],
      [sessionIds[0], 'Balcony', 48_000],
      [sessionIds[1], 'Stalls', 88_000],
    ] as const) {
      const tier = await editor.post<{ id: number }>(`/api/v1/operator/sessions/${sessionId}/tiers`, tierBody(en, faceValue));
      expect(tier.status, tier.text).toBe(200);
      tierIds.push(tier.body.data.id);
    }

    const edited = await editor.call<{ activity: { startsAt: number; endsAt: number }; sessions: { tiers: unknown[] }[] }>(
      `/api/v1/operator/activities/${activityId}`,
    );
    expect(edited.body.data.activity).toMatchObject({ startsAt: FIRST_SHOW, endsAt: FIRST_SHOW + DAY });
    expect(edited.body.data.sessions.map((session) => session.tiers.length)).toEqual([2, 1]);

    expect((await search(NAME.zhHant)).body.data.result.map((card) => card.id)).not.toContain(activityId);
    expect((await listingOfDay()).body.data.result.map((card) => card.id)).not.toContain(activityId);
    expect((await call(`/api/activity/${activityId}`)).status).toBe(404);
  });

  it('refuses a draft that breaks the rules, naming the field', async () => {
    const unordered = await editor.post(`/api/v1/operator/activities/${activityId}/sessions`, {
      ...sessionBody(FIRST_SHOW),
      offSaleAt: FIRST_SHOW + 60_000,
    });
    expect(unordered.status).toBe(400);
    expect(unordered.body).toMatchObject({ errorCode: 'sale_times_unordered', field: 'offSaleAt' });
    const free = await editor.post(`/api/v1/operator/sessions/${sessionIds[0]}/tiers`, tierBody('Free', 0));
    expect(free.body).toMatchObject({ errorCode: 'face_value_invalid', field: 'faceValue' });
    const http = await editor.post('/api/v1/operator/venues', { ...venueBody, mapUrl: 'http://maps.example.com' });
    expect(http.body).toMatchObject({ errorCode: 'map_url_invalid', field: 'mapUrl' });
    const unnamed = await editor.post('/api/v1/operator/artists', { names: { en: 'Solo', zhHant: ' ', zhHans: '獨奏' } });
    expect(unnamed.body).toMatchObject({ errorCode: 'name_required', field: 'names.zhHant' });
  });

  it('publishes it: buyers find it by its Traditional name, in the listing and on its page', async () => {
    const published = await editor.post<{ status: number; publishedAt: number }>(`/api/v1/operator/activities/${activityId}/publish`, {});
    expect(published.status, published.text).toBe(200);
    expect(published.body.data.status).toBe(1);

    expect((await search(NAME.zhHant)).body.data.result.map((card) => card.id)).toContain(activityId);
    expect((await listingOfDay()).body.data.result.map((card) => card.id)).toEqual([activityId]);
    expect((await suggestions('海港燈影')).body.data.map((suggestion) => suggestion.id)).toContain(activityId);
    const detail = await call<{ name: string; venue: { mapUrl: string }; buyingNotes: string }>(`/api/activity/${activityId}`, {
      headers: { language: 'zh-HK' },
    });
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ name: NAME.zhHant, venue: { mapUrl: venueBody.mapUrl }, buyingNotes: '提前一小時入場。' });
  });

  it('moves the catalogue version when a published activity is edited, and search sees the new name', async () => {
    const db = database(env.DB);
    const before = await catalogueVersions(db);
    const renamed = { ...NAME, zhHant: '海港燈影夜' };
    const edited = await patch(editor, `/api/v1/operator/activities/${activityId}`, {
      ...(await editor.call<{ activity: Record<string, unknown> }>(`/api/v1/operator/activities/${activityId}`)).body.data.activity,
      names: renamed,
      descriptions: { en: 'An evening by the water.', zhHant: '海邊的一晚。', zhHans: '海边的一晚。' },
      buyingNotes: { en: '', zhHant: '', zhHans: '' },
    });
    expect(edited.status, edited.text).toBe(200);
    expect((await catalogueVersions(db)).catalogue).toBeGreaterThan(before.catalogue);
    expect((await search('海港燈影夜')).body.data.result.map((card) => card.id)).toContain(activityId);
  });

  it('unpublishes it: gone from search, suggestions and the listing, a 404 for buyers, a preview for staff', async () => {
    const unpublished = await editor.post<{ status: number }>(`/api/v1/operator/activities/${activityId}/unpublish`, {});
    expect(unpublished.status, unpublished.text).toBe(200);
    expect(unpublished.body.data.status).toBe(0);

    expect((await search('海港燈影夜')).body.data.result.map((card) => card.id)).not.toContain(activityId);
    expect((await suggestions('海港燈影')).body.data.map((suggestion) => suggestion.id)).not.toContain(activityId);
    expect((await listingOfDay()).body.data.result).toEqual([]);
    expect((await call(`/api/activity/${activityId}`)).status).toBe(404);

    // The activity page's own read: staff who edit the catalogue preview it, customer service and buyers do not.
    const scope = await userScope(editorId);
    const sessionOf = (client: TestClient) => ({ token: client.cookies.get('pner')!, userId: client.cookies.get('pnid')! });
    const preview = await activityOrPreview(scope, activityId, sessionOf(editor));
    expect(preview.preview).toBe(true);
    expect(preview.page?.detail).toMatchObject({ id: activityId, bookable: false });
    expect(await activityOrPreview(scope, activityId, sessionOf(service))).toEqual({ page: null, preview: false });
    expect(await activityOrPreview(scope, activityId, null)).toEqual({ page: null, preview: false });
  });

  it('wrote an audit row for every change, by the editor', async () => {
    expect(await auditActions('venue', venueId)).toEqual(['venue.create']);
    expect(await auditActions('activity', activityId)).toEqual([
      'activity.create',
      'activity.publish',
      'activity.update',
      'activity.unpublish',
    ]);
    for (const id of sessionIds) expect(await auditActions('session', id)).toEqual(['session.create']);
    for (const id of tierIds) expect(await auditActions('tier', id)).toEqual(['tier.create']);
    const row = await env.DB.prepare("SELECT before_json, after_json FROM audit_log WHERE action = 'activity.unpublish' AND subject_id = ?")
      .bind(String(activityId))
      .first<{ before_json: string; after_json: string }>();
    expect(JSON.parse(row!.before_json)).toMatchObject({ status: 1 });
    expect(JSON.parse(row!.after_json)).toMatchObject({ status: 0, publishedAt: null });
  });

  it('removes a session nobody ordered or listed', async () => {
    const extra = await editor.post<{ id: number }>(
      `/api/v1/operator/activities/${activityId}/sessions`,
      sessionBody(FIRST_SHOW + 2 * DAY),
    );
    const removed = await editor.call(`/api/v1/operator/sessions/${extra.body.data.id}`, { method: 'DELETE' });
    expect(removed.status, removed.text).toBe(200);
    expect(await auditActions('session', extra.body.data.id)).toEqual(['session.create', 'session.remove']);
  });
});

describe('who may edit the catalogue', () => {
  it('refuses an editor the on-sale and money routes', async () => {
    const session = await env.DB.prepare('SELECT id FROM activity_sessions LIMIT 1').first<{ id: number }>();
    const cancel = await editor.post(`/api/v1/operator/sessions/${session!.id}/cancel`, {});
    expect(cancel.status).toBe(403);
    expect(cancel.body.errorCode).toBe('staff_role_forbidden');
  });

  it('refuses customer service and buyers every catalogue route', async () => {
    const buyer = await signedInClient('catalogue-buyer');
    const routes: [string, string][] = [
      ['GET', '/api/v1/operator/venues'],
      ['POST', '/api/v1/operator/venues'],
      ['PATCH', '/api/v1/operator/venues/1'],
      ['GET', '/api/v1/operator/artists'],
      ['POST', '/api/v1/operator/artists'],
      ['GET', '/api/v1/operator/categories'],
      ['POST', '/api/v1/operator/categories'],
      ['GET', '/api/v1/operator/activities'],
      ['POST', '/api/v1/operator/activities'],
      ['PATCH', '/api/v1/operator/activities/1000'],
      ['POST', '/api/v1/operator/activities/1000/publish'],
      ['POST', '/api/v1/operator/activities/1000/unpublish'],
      ['POST', '/api/v1/operator/activities/1000/sessions'],
      ['DELETE', '/api/v1/operator/sessions/1'],
      ['POST', '/api/v1/operator/sessions/1/tiers'],
      ['PATCH', '/api/v1/operator/tiers/1'],
    ];
    for (const [method, path] of routes) {
      const asService = await service.call(path, { method, body: method === 'GET' ? undefined : {} });
      expect(asService.status, `${method} ${path}`).toBe(403);
      expect(asService.body.errorCode).toBe('staff_role_forbidden');
      const asBuyer = await buyer.call(path, { method, body: method === 'GET' ? undefined : {} });
      expect(asBuyer.body.errorCode, `${method} ${path}`).toBe('not_staff');
      expect((await call(path, { method })).status).toBe(401);
    }
  });
});
