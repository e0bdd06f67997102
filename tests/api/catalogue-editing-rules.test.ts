/**
 * What an editor may not change once buyers and sellers hold a show: a session with listings keeps its
 * time and stays, a tier with listings keeps its currency and stays, a published session's high demand is
 * the on-sale screens' switch; and what the catalogue's own records refuse (a venue of another city, a
 * category slug taken). A renamed artist reaches search through the index's triggers.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ListResponse } from '../../src/lib/services/catalogue/listing.ts';
import { signedInClient, type TestClient } from './auth-client.ts';
import { call, seed } from './helpers.ts';

let editor: TestClient;
/** A seeded, published session of Hong Kong with sellers' listings, its activity and one of its tiers. */
let held: { sessionId: number; activityId: number; tierId: number; startsAt: number; endsAt: number; artistId: number };

const patch = (path: string, body: unknown) => editor.call(path, { method: 'PATCH', body });

beforeAll(async () => {
  await seed();
  editor = await signedInClient('rules-editor');
  await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'editor', 0)")
    .bind(Number(editor.cookies.get('pnid')))
    .run();
  held = (await env.DB.prepare(
    `SELECT s.id AS sessionId, a.id AS activityId, t.id AS tierId, s.starts_at AS startsAt, s.ends_at AS endsAt, a.artist_id AS artistId
     FROM listings l JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE a.status = 1 AND a.city_id = 341 AND s.high_demand = 0 AND a.artist_id IS NOT NULL ORDER BY s.id LIMIT 1`,
  ).first())!;
});

async function heldSession() {
  const { body } = await editor.call<{ sessions: { id: number; startsAt: number; endsAt: number; onSaleAt: number; offSaleAt: number }[] }>(
    `/api/v1/operator/activities/${held.activityId}`,
  );
  const session = body.data.sessions.find((each) => each.id === held.sessionId)!;
  return {
    startsAt: session.startsAt,
    endsAt: session.endsAt,
    onSaleAt: session.onSaleAt,
    offSaleAt: session.offSaleAt,
    accountTicketCap: null,
    highDemand: false,
  };
}

describe('a show that sellers hold', () => {
  it('keeps its session’s time, and its session, but takes a new ticket cap', async () => {
    const session = await heldSession();
    const moved = await patch(`/api/v1/operator/sessions/${held.sessionId}`, {
      ...session,
      startsAt: session.startsAt + 86_400_000,
      endsAt: session.endsAt + 86_400_000,
      offSaleAt: session.startsAt,
    });
    expect(moved.body).toMatchObject({ errorCode: 'session_in_use', field: 'startsAt' });
    expect((await editor.call(`/api/v1/operator/sessions/${held.sessionId}`, { method: 'DELETE' })).body).toMatchObject({
      errorCode: 'session_in_use',
    });
    const capped = await patch(`/api/v1/operator/sessions/${held.sessionId}`, { ...session, accountTicketCap: 2 });
    expect(capped.status, capped.text).toBe(200);
    const row = await env.DB.prepare('SELECT account_ticket_cap AS cap FROM activity_sessions WHERE id = ?')
      .bind(held.sessionId)
      .first<{ cap: number }>();
    expect(row?.cap).toBe(2);
  });

  it('switches a published session’s high demand only on the on-sale screens', async () => {
    const refused = await patch(`/api/v1/operator/sessions/${held.sessionId}`, { ...(await heldSession()), highDemand: true });
    expect(refused.body).toMatchObject({ errorCode: 'session_high_demand_live', field: 'highDemand' });
  });

  it('keeps its tier’s currency, and its tier, but takes a new face value', async () => {
    const tier = { names: { en: 'Stalls', zhHant: '池座', zhHans: '池座' }, faceValue: 99_900, quota: 500, sort: 1 };
    expect((await patch(`/api/v1/operator/tiers/${held.tierId}`, { ...tier, currency: 'TWD' })).body).toMatchObject({
      errorCode: 'tier_in_use',
      field: 'currency',
    });
    expect((await editor.call(`/api/v1/operator/tiers/${held.tierId}`, { method: 'DELETE' })).body).toMatchObject({
      errorCode: 'tier_in_use',
    });
    const currency = await env.DB.prepare('SELECT currency FROM ticket_tiers WHERE id = ?').bind(held.tierId).first<{ currency: string }>();
    const repriced = await patch(`/api/v1/operator/tiers/${held.tierId}`, { ...tier, currency: currency!.currency });
    expect(repriced.status, repriced.text).toBe(200);
    expect(repriced.body.data).toMatchObject({ faceValue: 99_900, quota: 500 });
  });
});

describe('the catalogue’s own records', () => {
  it('refuse a venue of another city for an activity, and a category slug already taken', async () => {
    const venue = await env.DB.prepare('SELECT id FROM venues WHERE city_id <> 341 LIMIT 1').first<{ id: number }>();
    const activity = await editor.call<{ activity: Record<string, unknown> }>(`/api/v1/operator/activities/${held.activityId}`);
    const { activity: row } = activity.body.data;
    const names = { en: 'x', zhHant: 'x', zhHans: 'x' };
    const elsewhere = await patch(`/api/v1/operator/activities/${held.activityId}`, {
      ...row,
      venueId: venue!.id,
      names,
      descriptions: names,
    });
    expect(elsewhere.body).toMatchObject({ errorCode: 'venue_other_city', field: 'venueId' });

    const taken = await editor.post('/api/v1/operator/categories', {
      slug: 'concerts',
      names: { en: 'Gigs', zhHant: '音樂', zhHans: '音乐' },
    });
    expect(taken.body).toMatchObject({ errorCode: 'category_slug_taken', field: 'slug' });
    const made = await editor.post<{ id: number; slug: string }>('/api/v1/operator/categories', {
      slug: 'harbour-nights',
      names: { en: 'Harbour nights', zhHant: '海港夜', zhHans: '海港夜' },
    });
    expect(made.status, made.text).toBe(200);
    expect(made.body.data.slug).toBe('harbour-nights');
  });

  it('take a renamed artist into search at once', async () => {
    const renamed = await patch(`/api/v1/operator/artists/${held.artistId}`, {
      names: { en: 'Zephyrine Quill', zhHant: '澤菲琳', zhHans: '泽菲琳' },
      pinyin: 'ze fei lin',
    });
    expect(renamed.status, renamed.text).toBe(200);
    const { body } = await call<ListResponse>('/api/v1/list/s_Zephyrine?ignoreCityId=true');
    expect(body.data.result.map((card) => card.id)).toContain(held.activityId);
    const audit = await env.DB.prepare("SELECT before_json, after_json FROM audit_log WHERE action = 'artist.update' AND subject_id = ?")
      .bind(String(held.artistId))
      .first<{ before_json: string; after_json: string }>();
    expect(JSON.parse(audit!.after_json)).toMatchObject({ nameEn: 'Zephyrine Quill' });
    expect(JSON.parse(audit!.before_json).nameEn).not.toBe('Zephyrine Quill');
  });
});
