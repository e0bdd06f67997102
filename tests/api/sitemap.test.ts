/**
 * The sitemaps from the catalogue (services/catalogue/sitemap.ts) on real D1: which activities are listed, the
 * lastmod a cancellation moves, the parts and the one round trip each file costs.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import { countingRoundTrips } from '../../src/lib/data/measured-d1.ts';
import { referenceData } from '../../src/lib/services/catalogue/reference-data.ts';
import { sitemapIndex, sitemapPart } from '../../src/lib/services/catalogue/sitemap.ts';
import { REFERENCE_TIME, seed } from './helpers.ts';

const ORIGIN = 'https://tickets.example.com';
const NOW = REFERENCE_TIME + 3600_000;

beforeAll(async () => {
  await seed();
});

async function categories() {
  return (await referenceData(database(env.DB), NOW, null)).categories;
}

function locs(xml: string): string[] {
  return [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
}

async function listedIds(): Promise<number[]> {
  const { results } = await env.DB.prepare('SELECT id FROM activities WHERE status IN (1, 4, 6) AND ends_at > ? ORDER BY id')
    .bind(NOW)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

describe('sitemaps', () => {
  it('index every locale, each in one part while the catalogue fits one file, in one round trip', async () => {
    const list = await categories();
    const { result, roundTrips } = await countingRoundTrips(() => sitemapIndex(database(env.DB), list, ORIGIN, NOW));
    expect(locs(result)).toEqual(['en', 'zh-HK', 'zh-TW', 'zh-CN'].map((locale) => `${ORIGIN}/sitemaps/${locale}-1.xml`));
    expect(result).toMatch(/<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/lastmod>/);
    expect(roundTrips).toBe(1);
  });

  it('list home, every category, the info pages and every activity still to come that is published for sale', async () => {
    const list = await categories();
    const { result, roundTrips } = await countingRoundTrips(() =>
      sitemapPart(database(env.DB), list, ORIGIN, { locale: 'zh-HK', part: 1 }, NOW),
    );
    expect(roundTrips).toBe(1);
    const listed = locs(result!);
    expect(listed.slice(0, 1 + list.length)).toEqual([`${ORIGIN}/zh-HK/`, ...list.map((category) => `${ORIGIN}/zh-HK/${category.slug}`)]);
    expect(listed).toContain(`${ORIGIN}/zh-HK/transferAgreement`);
    const activities = listed.filter((loc) => loc.includes('/activity/')).map((loc) => Number(loc.split('/').pop()));
    expect(activities).toEqual(await listedIds());
  });

  it('leave out a draft and an ended activity', async () => {
    const [draft, ended] = (await listedIds()).slice(0, 2);
    await env.DB.batch([
      env.DB.prepare('UPDATE activities SET status = 0 WHERE id = ?').bind(draft),
      env.DB.prepare('UPDATE activities SET status = 7 WHERE id = ?').bind(ended),
    ]);
    const listed = locs((await sitemapPart(database(env.DB), await categories(), ORIGIN, { locale: 'en', part: 1 }, NOW))!);
    expect(listed).not.toContain(`${ORIGIN}/en/activity/${draft}`);
    expect(listed).not.toContain(`${ORIGIN}/en/activity/${ended}`);
  });

  it('move an activity lastmod to its session cancellation', async () => {
    const [id] = (await listedIds()).slice(-1);
    const changedAt = Date.UTC(2026, 10, 1, 0, 30);
    await env.DB.prepare("UPDATE activity_sessions SET status = 'cancelled', changed_at = ? WHERE activity_id = ?")
      .bind(changedAt, id)
      .run();
    const xml = (await sitemapPart(database(env.DB), await categories(), ORIGIN, { locale: 'en', part: 1 }, NOW))!;
    expect(xml.split('<url>').find((url) => url.includes(`/en/activity/${id}<`))).toContain(`<lastmod>2026-11-01T00:30:00Z</lastmod>`);
  });

  it('answer no part past the last', async () => {
    expect(await sitemapPart(database(env.DB), await categories(), ORIGIN, { locale: 'en', part: 2 }, NOW)).toBeNull();
  });
});
