import { env } from 'cloudflare:workers';
import { asc, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import { activities } from '../../src/lib/db/schema.ts';
import {
  cardQuery,
  cheapestValueHkd,
  liveCheapestListing,
  liveCheapestValueHkd,
  repickStartedCheapestListings,
} from '../../src/lib/services/catalogue/catalogue.ts';
import { seed } from './helpers.ts';

/**
 * A card's cheapest listing and the lists' price-sort key are read from the pick kept by migration
 * 0027's triggers, and must be what the live queries answer, for every activity at every time: before the pick was made, just
 * before and at the start of each session, long after, and after every kind of write that can move it.
 */
const db = database(env.DB);
const DAY = 86_400_000;

interface Pick {
  activityId: number;
  listingId: number;
  onSaleUntil: number | null;
  pickedAt: number;
}

async function picks(): Promise<Pick[]> {
  const { results } = await env.DB.prepare(
    'SELECT activity_id AS activityId, listing_id AS listingId, on_sale_until AS onSaleUntil, picked_at AS pickedAt FROM activity_cheapest_listings',
  ).all<Pick>();
  return results;
}

/**
 * Cards' answers and price-sort keys against the live queries' at `now`; returns how many cards the
 * kept pick answered and how many activities had a price to sort by.
 */
async function expectLiveAnswers(now: number): Promise<{ kept: number; priced: number }> {
  const cards = await cardQuery(db, now).orderBy(asc(activities.id));
  const live = await db
    .select({ id: activities.id, cheapest: sql<string | null>`${liveCheapestListing(now, sql`${activities.id}`)}` })
    .from(activities)
    .orderBy(asc(activities.id));
  expect(
    cards.map((card) => [card.activity.id, card.cheapest]),
    `at ${now}`,
  ).toEqual(live.map((row) => [row.id, row.cheapest === null ? null : JSON.parse(row.cheapest)]));
  const sortKeys = await db
    .select({
      id: activities.id,
      kept: sql<number | null>`${cheapestValueHkd(now, sql`${activities.id}`)}`,
      live: sql<number | null>`${liveCheapestValueHkd(now, sql`${activities.id}`)}`,
    })
    .from(activities);
  expect(
    sortKeys.filter((row) => row.kept !== row.live),
    `price-sort keys at ${now}`,
  ).toEqual([]);
  const kept = await env.DB.prepare(
    'SELECT count(*) AS n FROM activity_cheapest_listings WHERE picked_at <= ?1 AND (on_sale_until IS NULL OR on_sale_until > ?1)',
  )
    .bind(now)
    .first<{ n: number }>();
  return { kept: kept!.n, priced: sortKeys.filter((row) => row.live !== null).length };
}

/** Times at and just before the end of a sample of kept picks and a spread of others, past and future. */
async function times(): Promise<number[]> {
  const now = Date.now();
  const ends = (await picks()).flatMap((pick) => (pick.onSaleUntil === null ? [] : [pick.onSaleUntil]));
  const around = ends.filter((_, index) => index % Math.ceil(ends.length / 12) === 0).flatMap((end) => [end - 1, end]);
  const spread = [-30, -1, 0, 1, 2, 7, 30, 90, 200].map((days) => now + days * DAY);
  return [...new Set([...around, ...spread])].sort((a, b) => a - b);
}

async function expectLiveAnswersAtAllTimes(): Promise<void> {
  let kept = 0;
  let priced = 0;
  for (const now of await times()) {
    const answered = await expectLiveAnswers(now);
    kept += answered.kept;
    priced += answered.priced;
  }
  expect(kept).toBeGreaterThan(0);
  expect(priced).toBeGreaterThan(0);
}

/** An activity's kept pick and what else it has on sale now. */
async function activityWithChoices(): Promise<{
  activityId: number;
  listingId: number;
  otherListingId: number;
  tierId: number;
  sessionId: number;
}> {
  const row = await env.DB.prepare(
    `SELECT p.activity_id AS activityId, p.listing_id AS listingId, l.tier_id AS tierId, t.session_id AS sessionId,
       (SELECT o.id FROM listings o JOIN ticket_tiers ot ON ot.id = o.tier_id JOIN activity_sessions os ON os.id = ot.session_id
        WHERE os.activity_id = p.activity_id AND o.id != p.listing_id AND o.status = 'active' AND o.quantity_available > 0 ORDER BY o.id DESC LIMIT 1) AS otherListingId
     FROM activity_cheapest_listings p JOIN listings l ON l.id = p.listing_id JOIN ticket_tiers t ON t.id = l.tier_id
     WHERE p.on_sale_until IS NOT NULL AND otherListingId IS NOT NULL ORDER BY p.activity_id LIMIT 1 OFFSET 3`,
  ).first<{ activityId: number; listingId: number; otherListingId: number; tierId: number; sessionId: number }>();
  if (!row) throw new Error('no activity with a kept pick and another listing on sale');
  return row;
}

async function run(statement: string, ...values: unknown[]): Promise<void> {
  await env.DB.prepare(statement)
    .bind(...values)
    .run();
}

beforeAll(async () => {
  await seed(Math.floor(Date.now() / DAY) * DAY);
});

describe('the kept cheapest listing', () => {
  it('is kept for the seed and answers as the live query does at every time', async () => {
    const kept = await picks();
    expect(kept.length).toBeGreaterThan(300);
    expect(kept.filter((pick) => pick.onSaleUntil === null).length).toBeGreaterThan(0);
    await expectLiveAnswersAtAllTimes();
  });

  it('follows price, stock and status changes of listings', async () => {
    const { listingId, otherListingId } = await activityWithChoices();
    await run('UPDATE listings SET price = 1 WHERE id = ?', otherListingId);
    expect((await picks()).some((pick) => pick.listingId === otherListingId)).toBe(true);
    await expectLiveAnswersAtAllTimes();
    await run('UPDATE listings SET quantity_available = 0 WHERE id = ?', otherListingId);
    await expectLiveAnswersAtAllTimes();
    await run("UPDATE listings SET status = 'withdrawn', quantity_available = 2 WHERE id = ?", listingId);
    await expectLiveAnswersAtAllTimes();
    await run("UPDATE listings SET status = 'sold_out' WHERE id = ?", otherListingId);
    await expectLiveAnswersAtAllTimes();
  });

  it('follows rates and currency digits', async () => {
    // The seed's activities each sell in one currency: a listing in US dollars priced just above the
    // pick's value in HKD makes one whose rate and digits decide the pick.
    const { activityId, listingId, otherListingId } = await activityWithChoices();
    await run(
      `UPDATE listings SET currency = 'USD', price = 1 + CAST(1.01 * 100 * (SELECT f.per_hkd_micros FROM fx_rates f WHERE f.quote = 'USD') / 1000000.0 * (
         SELECT p.price * 1000000.0 / (f.per_hkd_micros * CASE c.minor_digits WHEN 0 THEN 1 ELSE 100 END)
         FROM activity_cheapest_listings p JOIN fx_rates f ON f.quote = p.currency JOIN currencies c ON c.code = p.currency WHERE p.activity_id = ?1) AS INTEGER)
       WHERE id = ?2`,
      activityId,
      otherListingId,
    );
    const pickOf = async () => (await picks()).find((pick) => pick.activityId === activityId)?.listingId;
    expect(await pickOf()).toBe(listingId);
    await run("UPDATE fx_rates SET per_hkd_micros = per_hkd_micros * 2 WHERE quote = 'USD'");
    expect(await pickOf()).toBe(otherListingId);
    await expectLiveAnswersAtAllTimes();
    await run("UPDATE fx_rates SET per_hkd_micros = per_hkd_micros / 2 WHERE quote = 'USD'");
    expect(await pickOf()).toBe(listingId);
    await run("UPDATE currencies SET minor_digits = 3 WHERE code = 'USD'");
    expect(await pickOf()).toBe(otherListingId);
    await expectLiveAnswersAtAllTimes();
    await run("UPDATE currencies SET minor_digits = 2 WHERE code = 'USD'");
    expect(await pickOf()).toBe(listingId);
    await run("UPDATE fx_rates SET per_hkd_micros = per_hkd_micros * 40 WHERE quote != 'HKD'");
    await expectLiveAnswersAtAllTimes();
    await run("UPDATE fx_rates SET per_hkd_micros = per_hkd_micros / 40 WHERE quote != 'HKD'");
    await expectLiveAnswersAtAllTimes();
    const rate = await env.DB.prepare(
      "SELECT per_hkd_micros AS perHkdMicros, updated_at AS updatedAt FROM fx_rates WHERE quote = 'PHP'",
    ).first<{
      perHkdMicros: number;
      updatedAt: number;
    }>();
    await run("DELETE FROM fx_rates WHERE quote = 'PHP'");
    await expectLiveAnswersAtAllTimes();
    await run("INSERT INTO fx_rates (quote, per_hkd_micros, updated_at) VALUES ('PHP', ?, ?)", rate!.perHkdMicros, rate!.updatedAt);
    await expectLiveAnswersAtAllTimes();
  });

  it('follows tiers and sessions: face value, moves between sessions and activities, start times', async () => {
    const { activityId, tierId, sessionId } = await activityWithChoices();
    await run('UPDATE ticket_tiers SET face_value = face_value + 12345 WHERE id = ?', tierId);
    await expectLiveAnswersAtAllTimes();
    const other = await env.DB.prepare('SELECT id FROM activity_sessions WHERE activity_id != ? ORDER BY id LIMIT 1')
      .bind(activityId)
      .first<{ id: number }>();
    await run('UPDATE ticket_tiers SET session_id = ? WHERE id = ?', other!.id, tierId);
    await expectLiveAnswersAtAllTimes();
    await run('UPDATE ticket_tiers SET session_id = ? WHERE id = ?', sessionId, tierId);
    await run('UPDATE activity_sessions SET starts_at = ? WHERE id = ?', Date.now() + 3_600_000, sessionId);
    await expectLiveAnswersAtAllTimes();
    await run('UPDATE activity_sessions SET starts_at = ? WHERE id = ?', Date.now() - DAY, sessionId);
    await expectLiveAnswersAtAllTimes();
    await run('UPDATE activity_sessions SET activity_id = (SELECT max(id) FROM activities) WHERE id = ?', sessionId);
    await expectLiveAnswersAtAllTimes();
  });

  it('follows inserts and deletes, down to an activity with no listing', async () => {
    const { activityId, tierId } = await activityWithChoices();
    await run(
      `INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types)
       SELECT ?1, seller_id, 3, 'VND', 2, 2, seating, delivery_types FROM listings WHERE tier_id = ?1 LIMIT 1`,
      tierId,
    );
    await expectLiveAnswersAtAllTimes();
    await run(
      'DELETE FROM listings WHERE tier_id IN (SELECT t.id FROM ticket_tiers t JOIN activity_sessions s ON s.id = t.session_id WHERE s.activity_id = ?)',
      activityId,
    );
    expect((await picks()).some((pick) => pick.activityId === activityId)).toBe(false);
    await expectLiveAnswersAtAllTimes();
  });

  it('is picked again by the sweep once its session has started, answering from then on', async () => {
    const { activityId, listingId, sessionId } = await activityWithChoices();
    // The pick is made at the database's clock, in whole seconds: its session starts a moment later.
    await run('UPDATE activity_sessions SET starts_at = ? WHERE id = ?', Date.now() + 1000, sessionId);
    const before = (await picks()).find((pick) => pick.activityId === activityId);
    expect(before?.listingId).toBe(listingId);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await repickStartedCheapestListings(db, Date.now());
    const after = (await picks()).find((pick) => pick.activityId === activityId);
    expect(after?.listingId).not.toBe(listingId);
    expect(after!.pickedAt).toBeGreaterThan(before!.onSaleUntil! - 1000);
    await expectLiveAnswersAtAllTimes();
  });
});
