import { createHash } from 'node:crypto';
import { getTableName, is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, it, expect } from 'vitest';
import { DEFAULT_CITY_ID } from '../../src/lib/config/request.ts';
import * as schema from '../../src/lib/db/schema.ts';
import { buildReferenceRows, REFERENCE_TABLES } from '../../src/lib/db/reference-rows.ts';
import { verifyPassword } from '../../src/lib/domain/password.ts';
import {
  buildSeed,
  SEED_TABLES,
  seedStatements,
  type SeedData,
  DEMO_SELLER_PASSWORD,
  DEMO_SELLER_PASSWORD_HASH,
} from '../../src/lib/db/seed.ts';

const DAY = 24 * 60 * 60 * 1000;
const REFERENCE_TIME = Date.UTC(2025, 0, 15);
const seed = buildSeed(REFERENCE_TIME);
/** What a seeded database holds: the migrations' reference rows and the demo catalogue. */
const stocked: SeedData = { ...buildReferenceRows(), ...seed };

type Row = SeedData[string][number];

/** SQL column names and foreign keys per table, from the Drizzle schema the migrations are generated from. */
function readSchema(): Map<string, { columns: string[]; foreignKeys: { column: string; table: string; target: string }[] }> {
  const tables = new Map();
  for (const table of Object.values(schema)) {
    if (!is(table, SQLiteTable)) continue;
    const config = getTableConfig(table);
    const foreignKeys = config.foreignKeys.map((foreignKey) => {
      const reference = foreignKey.reference();
      return { column: reference.columns[0].name, table: getTableName(reference.foreignTable), target: reference.foreignColumns[0].name };
    });
    tables.set(config.name, { columns: config.columns.map((column) => column.name).sort(), foreignKeys });
  }
  return tables;
}

function rowsOf(table: string): Row[] {
  return stocked[table] ?? [];
}

function groupBy(rows: Row[], key: string): Map<unknown, Row[]> {
  const groups = new Map<unknown, Row[]>();
  for (const row of rows) groups.set(row[key], [...(groups.get(row[key]) ?? []), row]);
  return groups;
}

describe('buildSeed', () => {
  it('is deterministic for a reference time', () => {
    expect(buildSeed(REFERENCE_TIME)).toEqual(seed);
    expect(JSON.stringify(seedStatements(buildSeed(REFERENCE_TIME)))).toBe(JSON.stringify(seedStatements(seed)));
  });

  it('moves only the dates when the reference time changes', () => {
    const later = buildSeed(REFERENCE_TIME + 7 * DAY);
    expect(later.activities.map((row) => row.name_en)).toEqual(seed.activities.map((row) => row.name_en));
    later.activities.forEach((row, index) => {
      expect(row.starts_at).toBe((seed.activities[index].starts_at as number) + 7 * DAY);
      expect(row.sale_starts_at).toBe((seed.activities[index].sale_starts_at as number) + 7 * DAY);
    });
    expect(later.listings.map((row) => row.price)).toEqual(seed.listings.map((row) => row.price));
  });

  it('has the reference data the storefront expects', () => {
    expect(rowsOf('languages').map((row) => [row.code, row.language_type])).toEqual([
      ['en', 1],
      ['zh-HK', 2],
      ['zh-TW', 3],
      ['zh-CN', 4],
    ]);
    const minorDigits = Object.fromEntries(rowsOf('currencies').map((row) => [row.code, row.minor_digits]));
    expect(minorDigits).toEqual({ HKD: 2, MOP: 2, TWD: 0, CNY: 2, SGD: 2, MYR: 2, THB: 2, PHP: 2, IDR: 0, VND: 0, USD: 2 });
    expect(new Set(rowsOf('currencies').map((row) => row.currency_type)).size).toBe(11);
    expect(rowsOf('fx_rates').find((row) => row.quote === 'HKD')?.per_hkd_micros).toBe(1_000_000);
    expect(rowsOf('countries').map((row) => row.code)).toEqual(
      expect.arrayContaining(['HK', 'MO', 'TW', 'CN', 'SG', 'MY', 'TH', 'PH', 'ID', 'VN', 'JP', 'KR', 'US', 'GB', 'AU']),
    );
  });

  it('makes city 341 Hong Kong and seeds enough places', () => {
    const hongKong = rowsOf('cities').find((row) => row.id === DEFAULT_CITY_ID);
    expect(hongKong).toMatchObject({ id: 341, name_en: 'Hong Kong', name_zh_hant: '香港', is_hot_city: 1, time_zone: 'Asia/Hong_Kong' });
    expect(rowsOf('cities').length).toBeGreaterThanOrEqual(14);
    expect(rowsOf('cities').filter((row) => row.is_hot_city === 1).length).toBeGreaterThanOrEqual(6);
    for (const city of rowsOf('cities')) {
      expect(city.first_letter).toBe(String(city.name_en)[0]);
      expect(city.city_code).toMatch(/^[a-z]+$/);
      const venues = rowsOf('venues').filter((venue) => venue.city_id === city.id);
      expect(venues.length).toBeGreaterThanOrEqual(2);
      expect(venues.length).toBeLessThanOrEqual(4);
    }
  });

  it('meets the catalogue minimums', () => {
    expect(rowsOf('categories').length).toBeGreaterThanOrEqual(8);
    for (const category of rowsOf('categories')) expect(category.slug).toMatch(/^[a-z]+(-[a-z]+)*$/);
    expect(rowsOf('artists').length).toBeGreaterThanOrEqual(40);
    expect(rowsOf('activities').length).toBeGreaterThanOrEqual(320);
    expect(rowsOf('activities').every((row) => (row.id as number) >= 1000)).toBe(true);
    expect(rowsOf('users').filter((row) => row.is_seller === 1).length).toBeGreaterThanOrEqual(10);
    expect(new Set(rowsOf('users').map((row) => row.invite_code)).size).toBe(rowsOf('users').length);
    for (const user of rowsOf('users')) expect(user.invite_code).toMatch(/^[A-Z0-9]{8}$/);
    for (const locale of ['en', 'zh-Hant', 'zh-Hans']) {
      expect(rowsOf('hot_keywords').filter((row) => row.locale === locale)).toHaveLength(8);
    }
    expect(rowsOf('banners').filter((row) => row.city_id === DEFAULT_CITY_ID)).toHaveLength(5);
    expect(rowsOf('pop_up_boxes').length).toBeGreaterThanOrEqual(1);
    for (const box of rowsOf('pop_up_boxes')) expect(JSON.parse(String(box.content)).title['zh-Hant']).toBeTruthy();
    const purposes = rowsOf('coupons').map((row) => row.purpose);
    expect(purposes).toEqual(expect.arrayContaining(['general', 'invitee', 'inviter']));
    expect(rowsOf('coupons').some((row) => row.new_user_only === 1)).toBe(true);
  });

  it('spreads activities over every city and category, Hong Kong the most', () => {
    const byCity = groupBy(rowsOf('activities'), 'city_id');
    const counts = rowsOf('cities').map((city) => byCity.get(city.id)?.length ?? 0);
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(byCity.get(DEFAULT_CITY_ID)?.length).toBe(Math.max(...counts));
    const byCategory = groupBy(rowsOf('activities'), 'category_id');
    for (const category of rowsOf('categories')) expect(byCategory.get(category.id)?.length).toBeGreaterThan(0);
    for (const flag of ['is_hot', 'is_rare']) {
      expect(rowsOf('activities').filter((row) => row[flag] === 1).length).toBeGreaterThanOrEqual(20);
    }
    expect(new Set(rowsOf('activities').map((row) => row.status))).toEqual(new Set([1, 4, 6]));
  });

  it('starts at least 25 Hong Kong activities, and some in every city, within 15 days', () => {
    const soon = rowsOf('activities').filter(
      (row) => (row.starts_at as number) > REFERENCE_TIME && (row.starts_at as number) < REFERENCE_TIME + 15 * DAY,
    );
    expect(soon.filter((row) => row.city_id === DEFAULT_CITY_ID).length).toBeGreaterThanOrEqual(25);
    for (const city of rowsOf('cities')) expect(soon.filter((row) => row.city_id === city.id).length).toBeGreaterThanOrEqual(3);
  });

  it('keeps sale dates consistent with the status', () => {
    for (const activity of rowsOf('activities')) {
      if (activity.status === 6) {
        expect(activity.sale_starts_at).toBeGreaterThan(REFERENCE_TIME);
        expect(activity.sale_starts_at).toBeLessThan(activity.starts_at as number);
      } else {
        expect(activity.sale_starts_at).toBeLessThan(REFERENCE_TIME);
      }
      expect(activity.created_at).toBeLessThanOrEqual(REFERENCE_TIME);
    }
  });

  it('gives every activity sessions, every session tiers and every tier listings', () => {
    const sessionsByActivity = groupBy(rowsOf('activity_sessions'), 'activity_id');
    const tiersBySession = groupBy(rowsOf('ticket_tiers'), 'session_id');
    const listingsByTier = groupBy(rowsOf('listings'), 'tier_id');
    for (const activity of rowsOf('activities')) {
      const sessions = sessionsByActivity.get(activity.id) ?? [];
      expect(sessions.length).toBeGreaterThanOrEqual(1);
      expect(sessions.length).toBeLessThanOrEqual(4);
      const starts = sessions.map((session) => session.starts_at as number);
      expect(activity.starts_at).toBe(Math.min(...starts));
      expect(activity.ends_at).toBe(Math.max(...starts));
      for (const session of sessions) {
        expect(session.starts_at).toBeGreaterThanOrEqual(REFERENCE_TIME + DAY);
        expect(session.starts_at).toBeLessThan(REFERENCE_TIME + 181 * DAY);
        const tiers = tiersBySession.get(session.id) ?? [];
        expect(tiers.length).toBeGreaterThanOrEqual(2);
        expect(tiers.length).toBeLessThanOrEqual(5);
        for (const tier of tiers) {
          const listings = listingsByTier.get(tier.id) ?? [];
          expect(listings.length).toBeGreaterThanOrEqual(2);
          expect(new Set(listings.map((listing) => listing.seller_id)).size).toBe(listings.length);
          for (const listing of listings) expect(listing.currency).toBe(tier.currency);
        }
      }
    }
  });

  it('prices listings both below and above face value', () => {
    const faceValue = new Map(rowsOf('ticket_tiers').map((tier) => [tier.id, tier.face_value as number]));
    const ratios = rowsOf('listings').map((listing) => (listing.price as number) / faceValue.get(listing.tier_id)!);
    expect(ratios.some((ratio) => ratio < 1)).toBe(true);
    expect(ratios.some((ratio) => ratio > 1)).toBe(true);
    expect(Math.min(...ratios)).toBeGreaterThanOrEqual(0.5);
    expect(Math.max(...ratios)).toBeLessThanOrEqual(2.6);
  });

  it('has sold-out activities whose listings have nothing left', () => {
    const tierSession = new Map(rowsOf('ticket_tiers').map((tier) => [tier.id, tier.session_id]));
    const sessionActivity = new Map(rowsOf('activity_sessions').map((session) => [session.id, session.activity_id]));
    const byActivity = groupBy(
      rowsOf('listings').map((listing) => ({ ...listing, activity_id: sessionActivity.get(tierSession.get(listing.tier_id)!)! })),
      'activity_id',
    );
    const soldOut = [...byActivity.values()].filter((listings) => listings.every((listing) => listing.quantity_available === 0));
    expect(soldOut.length).toBeGreaterThanOrEqual(3);
    for (const listings of soldOut) for (const listing of listings) expect(listing.status).toBe('sold_out');
  });

  it('writes every column of the schema and points every foreign key at an existing row', () => {
    const schema = readSchema();
    const problems: string[] = [];
    let checkedKeys = 0;
    for (const table of Object.keys(stocked)) {
      const definition = schema.get(table);
      expect(definition, table).toBeDefined();
      for (const row of stocked[table]) expect(Object.keys(row).sort(), table).toEqual(definition!.columns);
      for (const { column, table: target, target: targetColumn } of definition!.foreignKeys) {
        const existing = new Set(rowsOf(target).map((row) => row[targetColumn]));
        for (const row of stocked[table]) {
          checkedKeys += 1;
          if (row[column] !== null && !existing.has(row[column])) problems.push(`${table}.${column} = ${row[column]} has no ${target} row`);
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checkedKeys).toBeGreaterThan(10_000);
    for (const banner of rowsOf('banners')) {
      const activity = rowsOf('activities').find((row) => row.id === banner.activity_id);
      expect(activity?.city_id).toBe(banner.city_id);
      expect(banner.url).toBe(`/activity/${banner.activity_id}`);
    }
  });

  it('names everything in English, Traditional and Simplified Chinese', () => {
    for (const rows of Object.values(stocked)) {
      for (const row of rows) {
        for (const prefix of ['name', 'description']) {
          if (!(`${prefix}_en` in row)) continue;
          for (const script of ['en', 'zh_hant', 'zh_hans']) expect(String(row[`${prefix}_${script}`]).trim()).not.toBe('');
        }
      }
    }
    const artists = rowsOf('artists');
    expect(artists.filter((row) => row.name_zh_hant !== row.name_zh_hans).length).toBeGreaterThanOrEqual(5);
    for (const artist of artists) expect(artist.pinyin).toMatch(/^([a-z]+( [a-z]+)*)?$/);
  });
});

describe('seedStatements', () => {
  const statements = seedStatements(seed);

  it('inserts every table in foreign-key order with at most 50 rows per statement', () => {
    const tables = statements.map((statement) => /^INSERT INTO "(\w+)"/.exec(statement)?.[1]);
    expect([...new Set(tables)]).toEqual(SEED_TABLES);
    for (const statement of statements) {
      expect(statement.endsWith(');')).toBe(true);
      expect(new TextEncoder().encode(statement).length).toBeLessThan(100_000);
      expect(statement).not.toMatch(/\b(BEGIN|COMMIT|PRAGMA)\b/);
    }
    const rowsPerTable = new Map<string, number>();
    for (const statement of statements) {
      const table = /^INSERT INTO "(\w+)"/.exec(statement)![1];
      const rows = statement.split('), (').length;
      expect(rows).toBeLessThanOrEqual(50);
      rowsPerTable.set(table, (rowsPerTable.get(table) ?? 0) + rows);
    }
    for (const table of SEED_TABLES) expect(rowsPerTable.get(table), table).toBe(seed[table].length);
  });

  it('escapes quotes and writes NULL and booleans', () => {
    const [statement] = seedStatements({
      artists: [{ id: 1, name_en: "Rock 'n' Roll", name_zh_hant: '搖滾', name_zh_hans: '摇滚', pinyin: null }],
      users: [],
    });
    expect(statement).toBe(
      `INSERT INTO "artists" ("id", "name_en", "name_zh_hant", "name_zh_hans", "pinyin") VALUES (1, 'Rock ''n'' Roll', '搖滾', '摇滚', NULL);`,
    );
    expect(seedStatements({ activities: [{ id: 1, is_hot: true, is_rare: false }] })[0]).toContain('VALUES (1, 1, 0);');
  });

  it('rejects tables it has no insert order for', () => {
    expect(() => seedStatements({ orders: [{ id: 1 }] })).toThrow(/orders/);
  });

  it('leaves the reference tables to the migrations', () => {
    expect(SEED_TABLES.filter((table) => REFERENCE_TABLES.includes(table))).toEqual([]);
    expect(Object.keys(seed).filter((table) => REFERENCE_TABLES.includes(table))).toEqual([]);
    expect(() => seedStatements({ cities: [{ id: 1 }] })).toThrow(/cities/);
  });
});

describe('demo sellers', () => {
  it('sign in with the documented demo password', async () => {
    expect(await verifyPassword(DEMO_SELLER_PASSWORD, DEMO_SELLER_PASSWORD_HASH)).toBe(true);
    expect(await verifyPassword('demoseller2026', DEMO_SELLER_PASSWORD_HASH)).toBe(false);
  });
});

describe('demo lotteries', () => {
  const lotteries = rowsOf('lotteries');

  it('open a few lotteries on upcoming shows on sale, drawn before the show', () => {
    expect(lotteries.length).toBeGreaterThanOrEqual(3);
    for (const lottery of lotteries) {
      const activity = rowsOf('activities').find((row) => row.id === lottery.activity_id)!;
      const tier = rowsOf('ticket_tiers').find((row) => row.id === lottery.tier_id)!;
      const session = rowsOf('activity_sessions').find((row) => row.id === tier.session_id)!;
      expect(session.activity_id).toBe(activity.id);
      expect(activity.status).toBe(1);
      expect(activity.sale_starts_at as number).toBeLessThanOrEqual(REFERENCE_TIME);
      expect(lottery.status).toBe('open');
      expect(lottery.draw_at as number).toBeGreaterThan(REFERENCE_TIME);
      expect(lottery.draw_at as number).toBeLessThan(session.starts_at as number);
      expect(lottery.max_codes_per_entry as number).toBeGreaterThan(1);
      const prizeStock = rowsOf('listings')
        .filter((row) => row.tier_id === tier.id && row.status === 'active' && String(row.delivery_types).split(',').includes('e_ticket'))
        .reduce((sum, row) => sum + (row.quantity_available as number), 0);
      expect(prizeStock).toBeGreaterThanOrEqual((lottery.prize_count as number) * (lottery.tickets_per_prize as number));
    }
  });

  it('publish the SHA-256 of a 256-bit seed, the same every day, with only the draw time moving', () => {
    for (const lottery of lotteries) {
      expect(lottery.seed).toMatch(/^[0-9a-f]{64}$/);
      expect(lottery.seed_commitment).toBe(
        createHash('sha256')
          .update(lottery.seed as string)
          .digest('hex'),
      );
    }
    expect(new Set(lotteries.map((row) => row.seed)).size).toBe(lotteries.length);
    const later = buildSeed(REFERENCE_TIME + 7 * DAY).lotteries;
    expect(later.map((row) => row.seed)).toEqual(lotteries.map((row) => row.seed));
    expect(later.map((row) => row.draw_at)).toEqual(lotteries.map((row) => (row.draw_at as number) + 7 * DAY));
  });
});
