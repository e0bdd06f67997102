/**
 * Search latency against catalogue size: generated catalogues of 1,000, 10,000, 100,000 and
 * 1,000,000 activities (names in English, Traditional and Simplified Chinese, artists with pinyin),
 * each loaded into its own local D1 under .wrangler/bench-search-<size> (the migrations first, then
 * the rows written straight into that SQLite file in transactions of LOAD_BATCH activities, so the
 * FTS index is built by its triggers, as on a catalogue write), then measured through the built
 * worker over HTTP: sequential timed requests of a query mix give p50/p95/p99, the same for the
 * broad words alone, and of suggestions for the mix's artist names typed a character at a
 * time, each with its ratio to the 1,000-activity row (every catalogue's server runs at once and
 * these passes take the sizes in turn, a stretch of one size's requests at a time: inRounds); autocannon at a
 * fixed concurrency gives requests per second. The time each catalogue took to load is reported. The sitemaps of each catalogue are built too: the index and
 * each English part, rendered afresh (a query string keeps the edge cache out), timed one at a time.
 * Prints a table and writes bench-results/search.json.
 *
 *   npm run bench:search                               build, then measure every size
 *   BENCH_SKIP_BUILD=1 npm run bench:search            measure the dist/ already built (npm run bench does)
 *   BENCH_SEARCH_SIZES=1000,10000                      measure only these sizes
 *   BENCH_PORT=8791                                    the first size's server port (default 8791; the next sizes take the next ports)
 *
 * A catalogue is generated once per size and reused while its folder holds it (for up to
 * REUSE_DAYS: its shows are dated from the day it was made), after applying any migration added
 * since; its load time and query mix are kept beside it. 100,000 activities take 166 MB and loaded in 72 s here; 1,000,000 take about 1.7 GB.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import autocannon from 'autocannon';
import { mulberry32 } from '../../src/lib/domain/random.ts';
import { buildReferenceRows } from '../../src/lib/db/reference-rows.ts';
import { buildSeed } from '../../src/lib/db/seed.ts';
import { build, migrate, ROOT, seedReferenceTime, serveArgs, WRANGLER, MEASURING_ENV } from '../local-db.ts';
import { startServer } from '../server.ts';
import { type Machine, machine, percentile, processTreeCpuMs } from './measurements.ts';

/** A generated artist: names in English, Traditional and Simplified Chinese, and pinyin. */
interface Artist {
  id: number;
  name_en: string;
  name_zh_hant: string;
  name_zh_hans: string;
  pinyin: string;
}

/** Takes a generated row for its table: its columns' SQL values. */
type Emit = (table: string, row: object) => void;

/** The seed's places as the generator reads them. */
interface Place {
  id: number;
  name_en: string;
  name_zh_hant: string;
  name_zh_hans: string;
}
interface Venue extends Place {
  city_id: number;
}

/** A catalogue's server while the bench measures it. */
interface CatalogueServer {
  base: string;
  stop: () => Promise<void>;
  /** The server's CPU so far (null without /proc). */
  cpuMs: () => number | null;
}

/** A catalogue's server with its query mix. */
interface MeasuredServer extends CatalogueServer {
  queries: string[];
}

type Percentiles = Record<'p50' | 'p95' | 'p99', number>;

/** A sitemap file's median render time, size and URL count. */
interface SitemapTiming {
  path: string;
  ms: number;
  bytes: number;
  urls: number;
}

/** A catalogue size's row of the report. */
interface SearchRow extends Percentiles {
  catalogue: number;
  cpu: number | null;
  broad: Percentiles & { cpu: number | null };
  suggest: Percentiles & { prefixes: number; cpu: number | null };
  slowest: { keyword: string; ms: number; matches: number }[];
  rps: number;
  loadSeconds: number;
  sitemap: { indexMs: number; partCount: number; parts: SitemapTiming[] };
}

interface SearchReport {
  date: string;
  machine: Machine;
  queries: number;
  p95BudgetMs: number;
  broadQueries: string[];
  rows: SearchRow[];
}

const SIZES = (process.env.BENCH_SEARCH_SIZES ?? '1000,10000,100000,1000000').split(',').map(Number);
const GENERATOR_VERSION = 3;
/** A generated catalogue is reused this many days after it was made; its shows are 1 to 180 days ahead. */
const REUSE_DAYS = 30;
/**
 * Passes over the whole query mix: one untimed (every keyword asked once before timing, so no keyword's
 * first answer after the server starts counts: 40 requests used to leave 26 of the 66 cold), then the
 * timed ones, each keyword the same number of times: 18, so that the p99 of a size rests on a dozen
 * samples rather than four, and one pause of the machine (100 to 400 ms, seen at every size, the
 * 1,000 catalogue included) moves it less.
 */
const WARMUP_PASSES = 1;
const TIMED_PASSES = 18;
const CONNECTIONS = 8;
const LOAD_DURATION_S = 8;
/** Activities (with their sessions, tiers and listings) written per transaction while loading. */
const LOAD_BATCH = 5000;
/** The broad words of the query mix (tens of thousands of matches at 100,000), timed on their own too. */
const BROAD_QUERIES = ['tour', '演唱', 'Hong Kong', '劉'];
const BROAD_REQUESTS = 600;
/** The broad words' requests are made in this many turns per catalogue (inRounds). */
const BROAD_ROUNDS = 15;
/** Each typed prefix of the mix's artist names is requested this many times (after one warm-up pass). */
const SUGGEST_PASSES = 2;
const P95_BUDGET_MS = 50;
/** The search's scaling targets: p95/p99 at 100,000 and more within this ratio of 1,000, broad words at 1,000,000 within BROAD_RATIO_TARGET. */
const RATIO_TARGET = 1.2;
const BROAD_RATIO_TARGET = 1.5;
/** The longest the scheduled sweep may take to move a catalogue's ended shows out of the live index. */
const SWEEP_TIMEOUT_MS = 300_000;
/** Renders of each sitemap file timed; the median is reported. */
const SITEMAP_RENDERS = 5;

/** The first catalogue's server port; the next sizes take the ports after it. */
const firstPort = Number(process.env.BENCH_PORT) || 8791;
const resultsDir = path.join(ROOT, 'bench-results');
const wranglerEnv = { ...MEASURING_ENV, CI: 'true' };
const DAY = 24 * 3600 * 1000;

// ---------------------------------------------------------------------------------------------
// The generated catalogue

// [Traditional, Simplified, pinyin]
const SURNAMES = [
  ['陳', '陈', 'chen'],
  ['黃', '黄', 'huang'],
  ['張', '张', 'zhang'],
  ['劉', '刘', 'liu'],
  ['林', '林', 'lin'],
  ['王', '王', 'wang'],
  ['李', '李', 'li'],
  ['楊', '杨', 'yang'],
  ['趙', '赵', 'zhao'],
  ['吳', '吴', 'wu'],
  ['周', '周', 'zhou'],
  ['徐', '徐', 'xu'],
  ['孫', '孙', 'sun'],
  ['馬', '马', 'ma'],
  ['朱', '朱', 'zhu'],
  ['胡', '胡', 'hu'],
  ['郭', '郭', 'guo'],
  ['何', '何', 'he'],
  ['高', '高', 'gao'],
  ['羅', '罗', 'luo'],
  ['鄭', '郑', 'zheng'],
  ['梁', '梁', 'liang'],
  ['謝', '谢', 'xie'],
  ['宋', '宋', 'song'],
  ['唐', '唐', 'tang'],
  ['許', '许', 'xu'],
  ['韓', '韩', 'han'],
  ['馮', '冯', 'feng'],
  ['鄧', '邓', 'deng'],
  ['曹', '曹', 'cao'],
];
const GIVEN = [
  ['嘉', '嘉', 'jia'],
  ['朗', '朗', 'lang'],
  ['偉', '伟', 'wei'],
  ['華', '华', 'hua'],
  ['明', '明', 'ming'],
  ['麗', '丽', 'li'],
  ['婷', '婷', 'ting'],
  ['欣', '欣', 'xin'],
  ['怡', '怡', 'yi'],
  ['俊', '俊', 'jun'],
  ['傑', '杰', 'jie'],
  ['軒', '轩', 'xuan'],
  ['詩', '诗', 'shi'],
  ['穎', '颖', 'ying'],
  ['曉', '晓', 'xiao'],
  ['晴', '晴', 'qing'],
  ['思', '思', 'si'],
  ['宇', '宇', 'yu'],
  ['浩', '浩', 'hao'],
  ['然', '然', 'ran'],
  ['子', '子', 'zi'],
  ['文', '文', 'wen'],
  ['雅', '雅', 'ya'],
  ['靜', '静', 'jing'],
  ['慧', '慧', 'hui'],
  ['志', '志', 'zhi'],
  ['強', '强', 'qiang'],
  ['國', '国', 'guo'],
  ['雪', '雪', 'xue'],
  ['琳', '琳', 'lin'],
  ['鋒', '锋', 'feng'],
  ['樂', '乐', 'le'],
  ['心', '心', 'xin'],
  ['美', '美', 'mei'],
  ['玲', '玲', 'ling'],
  ['瑩', '莹', 'ying'],
  ['凱', '凯', 'kai'],
  ['鴻', '鸿', 'hong'],
  ['翔', '翔', 'xiang'],
  ['藝', '艺', 'yi'],
];
const FIRST_NAMES = [
  'Kelvin',
  'Vivian',
  'Jason',
  'Mandy',
  'Ryan',
  'Crystal',
  'Alan',
  'Bonnie',
  'Calvin',
  'Daisy',
  'Edmond',
  'Fiona',
  'Gary',
  'Heidi',
  'Ivan',
  'Joey',
  'Kenny',
  'Lydia',
  'Marco',
  'Nancy',
  'Oscar',
  'Peggy',
  'Raymond',
  'Sammi',
  'Terence',
  'Ursula',
  'Victor',
  'Winnie',
  'Yoyo',
  'Zoe',
  'Andy',
  'Bella',
  'Chris',
  'Derek',
  'Eason',
  'Faye',
  'Gigi',
  'Hacken',
  'Iris',
  'Jacky',
  'Karen',
  'Leon',
  'Miriam',
  'Nicholas',
  'Olivia',
  'Patrick',
  'Queenie',
  'Rachel',
  'Stephen',
  'Tiffany',
];
const LAST_NAMES = [
  'Chan',
  'Wong',
  'Cheung',
  'Lau',
  'Lam',
  'Lee',
  'Ho',
  'Tse',
  'Yeung',
  'Chow',
  'Ng',
  'Leung',
  'Tang',
  'Kwok',
  'Ma',
  'Lo',
  'Cheng',
  'Hui',
  'Fung',
  'Tam',
  'Yip',
  'Kwan',
  'Mok',
  'Poon',
  'Sin',
  'Tsang',
  'Chu',
  'Au',
  'Fong',
  'Lai',
  'Lin',
  'Tsai',
  'Hsu',
  'Chen',
  'Huang',
  'Zhang',
  'Liu',
  'Zhao',
  'Sun',
  'Jiang',
];
// [English, Traditional, Simplified]
const SHOW_WORDS_A = [
  ['Midnight', '午夜', '午夜'],
  ['Golden', '黃金', '黄金'],
  ['Silent', '寂靜', '寂静'],
  ['Electric', '電光', '电光'],
  ['Blue', '藍色', '蓝色'],
  ['Wild', '狂野', '狂野'],
  ['Endless', '無盡', '无尽'],
  ['Secret', '秘密', '秘密'],
  ['Crystal', '水晶', '水晶'],
  ['Summer', '夏日', '夏日'],
  ['Neon', '霓虹', '霓虹'],
  ['Northern', '北方', '北方'],
];
const SHOW_WORDS_B = [
  ['Dreams', '夢想', '梦想'],
  ['Journey', '旅程', '旅程'],
  ['Echoes', '回聲', '回声'],
  ['Lights', '燈火', '灯火'],
  ['Hearts', '心跳', '心跳'],
  ['Waves', '浪潮', '浪潮'],
  ['Stories', '故事', '故事'],
  ['Horizon', '地平線', '地平线'],
  ['Memories', '回憶', '回忆'],
  ['Rhythm', '節奏', '节奏'],
];
const TITLES: Record<string, string[]> = {
  1: ['{artist} {show} World Tour – {city}', '{artist}《{show}》世界巡迴演唱會 – {city}站', '{artist}《{show}》世界巡回演唱会 – {city}站'],
  other: ['{artist}: {show} – {city}', '{artist}《{show}》 – {city}', '{artist}《{show}》 – {city}'],
};
const FIRST_ACTIVITY_ID = 100_000;
const FIRST_ARTIST_ID = 10_000;

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');
}

/**
 * The generated catalogue of `size` activities: the demo seed's places, new artists, activities and
 * inventory, handed row by row to `emit(table, row)` in an order that satisfies the foreign keys, so
 * that a million activities never sit in memory. Returns the query mix drawn from it.
 */
function generateCatalogue(size: number, referenceTime: number, emit: Emit): string[] {
  const rand = mulberry32(0xbe7c_0000 + size);
  const pick = <Item>(items: readonly Item[]): Item => items[Math.floor(rand() * items.length)];
  const seed = buildSeed(referenceTime);
  const reference = buildReferenceRows();
  // The seed's rows are loosely typed; these tables' columns are as their migrations define them.
  const cities = reference.cities as unknown as Place[];
  const venues = seed.venues as unknown as Venue[];
  const venuesByCity = new Map(cities.map((city) => [city.id, venues.filter((venue) => venue.city_id === city.id)]));
  const categories = reference.categories as unknown as { id: number }[];

  const artistCount = Math.max(100, Math.round(size / 10));
  const artists = Array.from({ length: artistCount }, (_, index): Artist => {
    const surname = pick(SURNAMES);
    const given = [pick(GIVEN), pick(GIVEN)];
    return {
      id: FIRST_ARTIST_ID + index,
      name_en: `${pick(FIRST_NAMES)} ${pick(LAST_NAMES)}`,
      name_zh_hant: surname[0] + given.map((g) => g[0]).join(''),
      name_zh_hans: surname[1] + given.map((g) => g[1]).join(''),
      pinyin: [surname[2], ...given.map((g) => g[2])].join(' '),
    };
  });

  // The reference tables are the migrations' (reference-rows.ts).
  for (const table of ['venues', 'users']) {
    for (const row of seed[table] ?? []) emit(table, row);
  }
  for (const artist of artists) emit('artists', artist);

  const activityNames: string[] = [];
  let tierCount = 0;
  const sellerIds = seed.users.map((user) => user.id);
  const currencyOf = new Map(cities.map((city) => [city.id, city.id === 341 ? 'HKD' : pick(['HKD', 'TWD', 'CNY', 'SGD', 'MOP'])]));
  for (let index = 0; index < size; index++) {
    const id = FIRST_ACTIVITY_ID + index;
    const artist = pick(artists);
    const category = rand() < 0.45 ? categories[0] : pick(categories);
    const city = pick(cities);
    const venue = pick(venuesByCity.get(city.id) ?? []);
    const [a, b] = [pick(SHOW_WORDS_A), pick(SHOW_WORDS_B)];
    const show = [`${a[0]} ${b[0]}`, `${a[1]}${b[1]}`, `${a[2]}${b[2]}`];
    const titles = TITLES[category.id] ?? TITLES.other;
    const names = [0, 1, 2].map((script) =>
      fill(titles[script], {
        artist: [artist.name_en, artist.name_zh_hant, artist.name_zh_hans][script],
        show: script === 0 && category.id === 1 ? show[0].toUpperCase() : show[script],
        city: [city.name_en, city.name_zh_hant, city.name_zh_hans][script],
      }),
    );
    const startsAt = referenceTime + (1 + Math.floor(rand() * 180)) * DAY + 12 * 3600 * 1000;
    activityNames.push(names[1]);
    emit('activities', {
      id,
      category_id: category.id,
      city_id: city.id,
      venue_id: venue.id,
      artist_id: artist.id,
      name_en: names[0],
      name_zh_hant: names[1],
      name_zh_hans: names[2],
      description_en: '',
      description_zh_hant: '',
      description_zh_hans: '',
      poster: `/posters/activity/${id}.svg`,
      status: rand() < 0.85 ? 1 : pick([4, 6]),
      is_hot: rand() < 0.05 ? 1 : 0,
      is_rare: 0,
      real_name_required: 0,
      num_min: 1,
      num_max: 6,
      starts_at: startsAt,
      ends_at: startsAt,
      sale_starts_at: referenceTime - 30 * DAY,
      created_at: referenceTime - 60 * DAY,
    });
    emit('activity_sessions', { id: index + 1, activity_id: id, starts_at: startsAt, ends_at: startsAt + 3 * 3600 * 1000 });
    const currency = currencyOf.get(city.id);
    for (const [share, sort] of [
      [1, 1],
      [0.6, 2],
    ]) {
      const tierId = ++tierCount;
      const faceValue = Math.round(80_000 * share);
      emit('ticket_tiers', {
        id: tierId,
        session_id: index + 1,
        name_en: 'Tier',
        name_zh_hant: '票價',
        name_zh_hans: '票价',
        face_value: faceValue,
        currency,
        sort,
      });
      const available = rand() < 0.9 ? 1 + Math.floor(rand() * 8) : 0;
      emit('listings', {
        id: tierId,
        tier_id: tierId,
        seller_id: pick(sellerIds),
        price: Math.round(faceValue * (0.7 + rand() * 0.9)),
        currency,
        quantity_total: Math.max(available, 1),
        quantity_available: available,
        seating: 'together',
        delivery_types: 'e_ticket',
        status: available > 0 ? 'active' : 'sold_out',
        source_order_id: null,
        created_at: referenceTime - 10 * DAY,
      });
    }
  }

  return queryMix(rand, artists, activityNames, venues);
}

/**
 * What buyers type, drawn from the catalogue: artists in every script and pinyin, name prefixes,
 * two-character Chinese words, venues and show words, a few broad words and a miss.
 */
function queryMix(
  rand: () => number,
  artists: Artist[],
  activityNames: string[],
  venues: { name_en: string; name_zh_hans: string }[],
): string[] {
  const pick = <Item>(items: readonly Item[]): Item => items[Math.floor(rand() * items.length)];
  const queries: string[] = [];
  for (let i = 0; i < 8; i++) {
    const artist = pick(artists);
    queries.push(artist.name_en, artist.name_zh_hant, artist.name_zh_hans, artist.pinyin.replaceAll(' ', ''), artist.name_en.slice(0, 4));
    queries.push(artist.name_zh_hant.slice(1, 3));
  }
  for (let i = 0; i < 4; i++) {
    const venue = pick(venues);
    queries.push(venue.name_en, [...venue.name_zh_hans].slice(0, 2).join(''));
    const name = pick(activityNames);
    queries.push(/《(.+?)》/.exec(name)?.[1] ?? name.slice(0, 2));
  }
  queries.push(...BROAD_QUERIES, 'midnight dreams', 'zzzz no match');
  return queries;
}

// ---------------------------------------------------------------------------------------------
// Loading and serving

/** The SQLite file of the local D1 in `persistTo` (created by the migrations). */
function databaseFile(persistTo: string): string {
  const folder = path.join(persistTo, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const files = readdirSync(folder).filter((name) => name.endsWith('.sqlite') && name !== 'metadata.sqlite');
  if (files.length !== 1) throw new Error(`Expected one database in ${folder}, found ${files.length}`);
  return path.join(folder, files[0]);
}

/** Writes the generated catalogue into the database, LOAD_BATCH activities per transaction; returns the query mix. */
function loadCatalogue(file: string, size: number, referenceTime: number): string[] {
  const db = new DatabaseSync(file);
  const inserts = new Map<string, StatementSync>();
  const insert: Emit = (table, row) => {
    let statement = inserts.get(table);
    if (!statement) {
      const columns = Object.keys(row);
      statement = db.prepare(
        `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      inserts.set(table, statement);
    }
    statement.run(...(Object.values(row) as SQLInputValue[]));
  };
  let activities = 0;
  db.exec('BEGIN');
  try {
    const queries = generateCatalogue(size, referenceTime, (table, row) => {
      if (table === 'activities' && ++activities % LOAD_BATCH === 0) {
        db.exec('COMMIT');
        db.exec('BEGIN');
      }
      insert(table, row);
    });
    db.exec('COMMIT');
    return queries;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  } finally {
    db.close();
  }
}

/** The catalogue's local D1, generated and loaded unless its folder already holds this size. */
async function prepareDatabase(
  size: number,
  referenceTime: number,
): Promise<{ persistTo: string; queries: string[]; loadSeconds: number }> {
  const persistTo = path.join(ROOT, '.wrangler', `bench-search-${size}`);
  const markerFile = path.join(persistTo, 'catalogue.json');
  if (existsSync(markerFile)) {
    const marker = JSON.parse(readFileSync(markerFile, 'utf8'));
    const fresh = referenceTime - marker.referenceTime <= REUSE_DAYS * DAY;
    if (marker.size === size && marker.version === GENERATOR_VERSION && fresh) {
      // A kept catalogue takes the migrations added since it was loaded; their backfill is timed here, not in its load time.
      const started = performance.now();
      migrate(persistTo);
      console.log(`migrated ${path.relative(ROOT, persistTo)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      return { persistTo, queries: marker.queries, loadSeconds: marker.loadSeconds };
    }
  }

  rmSync(persistTo, { recursive: true, force: true });
  mkdirSync(persistTo, { recursive: true });
  migrate(persistTo);
  const started = performance.now();
  const queries = loadCatalogue(databaseFile(persistTo), size, referenceTime);
  const loadSeconds = Number(((performance.now() - started) / 1000).toFixed(1));
  console.log(`loaded ${size} activities into ${path.relative(ROOT, persistTo)} in ${loadSeconds} s`);
  writeFileSync(markerFile, JSON.stringify({ size, referenceTime, version: GENERATOR_VERSION, loadSeconds, queries }));
  return { persistTo, queries, loadSeconds };
}

/** Starts the built worker on a catalogue; each catalogue's server has a port of its own, so all run at once. */
async function startCatalogueServer(persistTo: string, port: number): Promise<CatalogueServer> {
  const base = `http://127.0.0.1:${port}`;
  const { pid, stop } = await startServer({
    command: WRANGLER,
    args: [...serveArgs(persistTo, port), '--test-scheduled'],
    env: wranglerEnv,
    url: `${base}/api/v1/currency`,
  });
  return { base, stop, cpuMs: () => processTreeCpuMs(pid) };
}

/** Live index rows whose show has ended: what the sweep moves to the hidden tier (services/search/hide-ended.ts hideEndedFromSearch). */
const LIVE_ENDED_SQL = (now: number) => `SELECT count(*) AS n FROM activity_search s JOIN activities a ON a.id = (s.rowid & 4294967295)
  WHERE s.rowid < (2 << 58) AND a.ends_at < ${now}`;

async function liveEnded(server: CatalogueServer, now: number): Promise<number> {
  const response = await fetch(`${server.base}/api/v1/dev/sql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.base },
    body: JSON.stringify({ sql: LIVE_ENDED_SQL(now) }),
  });
  const body = (await response.json()) as { message?: string; data: { n: number }[] };
  if (response.status !== 200) throw new Error(`Counting ended shows answered ${response.status}: ${body.message}`);
  return body.data[0].n;
}

/**
 * Runs the worker's scheduled sweep, as the minute's cron trigger does when deployed (wrangler dev
 * fires none by itself), until no ended show is left in the live index: a catalogue is kept for
 * REUSE_DAYS from the day it was made, and the shows that ended since would otherwise stay at the
 * head of every doclist, as they never do on a swept catalogue. Answers how many it moved and the
 * seconds it took.
 */
async function sweepEnded(server: CatalogueServer): Promise<{ ended: number; seconds: number }> {
  const started = performance.now();
  const now = Date.now();
  const ended = await liveEnded(server, now);
  for (let left = ended; left > 0; left = await liveEnded(server, now)) {
    if (performance.now() - started > SWEEP_TIMEOUT_MS) throw new Error(`${left} ended shows still live after the sweep`);
    const response = await fetch(`${server.base}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent('* * * * *')}`);
    const text = await response.text();
    if (response.status !== 200) throw new Error(`The scheduled sweep answered ${response.status}: ${text}`);
  }
  return { ended, seconds: Number(((performance.now() - started) / 1000).toFixed(1)) };
}

// ---------------------------------------------------------------------------------------------
// Measuring

const searchPath = (keyword: string) => `/api/v1/list/s_${encodeURIComponent(keyword)}?sceneType=searchV2&ignoreCityId=true`;
const suggestPath = (typed: string) => `/api/v1/activities/suggest?input=${encodeURIComponent(typed)}&ignoreCityId=true`;

/**
 * What the search box sends while the mix's artist names are typed (English, Traditional,
 * Simplified, pinyin: the first four queries of each of queryMix's groups of six), a character at a
 * time as the debounce would let each keystroke through: every prefix of each name.
 */
function typedPrefixes(queries: string[]): string[] {
  const names: string[] = [];
  for (let group = 0; group + 6 <= queries.length && group < 48; group += 6) names.push(...queries.slice(group, group + 4));
  return names.flatMap((name) => [...name].map((_, length) => [...name].slice(0, length + 1).join('')));
}

/** One GET of a catalogue's server, timed; a non-200 answer stops the bench, naming `what` was asked. */
async function timedGet<Data>(server: CatalogueServer, pathname: string, what: string): Promise<{ ms: number; body: { data: Data } }> {
  const started = performance.now();
  const response = await fetch(`${server.base}${pathname}`);
  const body = (await response.json()) as { message?: string; data: Data };
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`${what} answered ${response.status}: ${body.message}`);
  return { ms, body };
}

async function timedSuggest(server: CatalogueServer, typed: string): Promise<number> {
  return (await timedGet(server, suggestPath(typed), `Suggestions for ${JSON.stringify(typed)}`)).ms;
}

async function timedSearch(server: CatalogueServer, keyword: string): Promise<{ ms: number; total: number }> {
  const { ms, body } = await timedGet<{ total: number }>(server, searchPath(keyword), `Search for ${JSON.stringify(keyword)}`);
  return { ms, total: body.data.total };
}

const round = (ms: number | null) => Number(ms?.toFixed(1));

function percentilesOf(latencies: number[]): Percentiles {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: round(percentile(sorted, 0.5)), p95: round(percentile(sorted, 0.95)), p99: round(percentile(sorted, 0.99)) };
}

/** The server's CPU time per request over `count` requests (null without /proc): the mean, which load on the machine hardly moves. */
function cpuPerRequest(cpuMs: number | null, count: number): number | null {
  return cpuMs === null ? null : round(cpuMs / count);
}

/**
 * Runs `block(server)` on every catalogue's server, round after round, the servers' order turning
 * by one each round, and answers each server's CPU over its own blocks. A block is a stretch of one
 * catalogue's requests one after another, as when each size was measured alone; taking the sizes
 * in turn lets whatever the machine does over the minutes of a run (other work, its pauses) fall on
 * every size alike, so the ratios to the 1,000 row compare like with like.
 */
async function inRounds(
  servers: MeasuredServer[],
  rounds: number,
  block: (server: MeasuredServer) => Promise<void>,
): Promise<(number | null)[]> {
  const cpu: (number | null)[] = servers.map(() => 0);
  for (let turn = 0; turn < rounds; turn++) {
    for (let k = 0; k < servers.length; k++) {
      const index = (k + turn) % servers.length;
      const before = servers[index].cpuMs();
      await block(servers[index]);
      const after = servers[index].cpuMs();
      const sum = cpu[index];
      cpu[index] = sum === null || before === null || after === null ? null : sum + after - before;
    }
  }
  return cpu;
}

/** Latency of the query mix, of the broad words alone and of suggestions, for every catalogue at once (inRounds). */
async function measureLatencies(servers: MeasuredServer[]): Promise<Omit<SearchRow, 'catalogue' | 'rps' | 'loadSeconds' | 'sitemap'>[]> {
  await inRounds(servers, WARMUP_PASSES, async (server) => {
    for (const keyword of server.queries) await timedSearch(server, keyword);
  });
  const latencies = new Map(servers.map((server): [MeasuredServer, number[]] => [server, []]));
  const slowest = new Map(servers.map((server): [MeasuredServer, Map<string, { ms: number; total: number }>] => [server, new Map()]));
  const searchCpu = await inRounds(servers, TIMED_PASSES, async (server) => {
    for (const keyword of server.queries) {
      const { ms, total } = await timedSearch(server, keyword);
      latencies.get(server)?.push(ms);
      const worst = slowest.get(server)!;
      worst.set(keyword, { ms: Math.max(ms, worst.get(keyword)?.ms ?? 0), total });
    }
  });

  const broadLatencies = new Map(servers.map((server): [MeasuredServer, number[]] => [server, []]));
  const broadCpu = await inRounds(servers, BROAD_ROUNDS, async (server) => {
    const done = broadLatencies.get(server)!;
    for (let i = 0; i < BROAD_REQUESTS / BROAD_ROUNDS; i++) {
      done.push((await timedSearch(server, BROAD_QUERIES[done.length % BROAD_QUERIES.length])).ms);
    }
  });

  const typed = new Map(servers.map((server): [MeasuredServer, string[]] => [server, typedPrefixes(server.queries)]));
  await inRounds(servers, 1, async (server) => {
    for (const prefix of typed.get(server)!) await timedSuggest(server, prefix);
  });
  const suggestLatencies = new Map(servers.map((server): [MeasuredServer, number[]] => [server, []]));
  const suggestCpu = await inRounds(servers, SUGGEST_PASSES, async (server) => {
    for (const prefix of typed.get(server)!) suggestLatencies.get(server)!.push(await timedSuggest(server, prefix));
  });

  return servers.map((server, index) => ({
    ...percentilesOf(latencies.get(server)!),
    cpu: cpuPerRequest(searchCpu[index], latencies.get(server)!.length),
    broad: { ...percentilesOf(broadLatencies.get(server)!), cpu: cpuPerRequest(broadCpu[index], BROAD_REQUESTS) },
    suggest: {
      prefixes: typed.get(server)!.length,
      ...percentilesOf(suggestLatencies.get(server)!),
      cpu: cpuPerRequest(suggestCpu[index], suggestLatencies.get(server)!.length),
    },
    slowest: [...slowest.get(server)!]
      .sort((x, y) => y[1].ms - x[1].ms)
      .slice(0, 3)
      .map(([keyword, { ms, total }]) => ({ keyword, ms: round(ms), matches: total })),
  }));
}

/** Requests per second under load, one catalogue's server at a time (the others idle). */
async function measureThroughput(server: MeasuredServer): Promise<number> {
  const load = await autocannon({
    url: server.base,
    connections: CONNECTIONS,
    duration: LOAD_DURATION_S,
    requests: server.queries.map((keyword) => ({ method: 'GET', path: searchPath(keyword) })),
  });
  if (load.errors > 0 || load.timeouts > 0 || load.non2xx > 0) {
    throw new Error(`Under load: ${load.errors} errors, ${load.timeouts} timeouts, ${load.non2xx} non-2xx answers`);
  }
  return Math.round(load.requests.average);
}

/** The median time to build a sitemap file, with its size and URL count; every render bypasses the edge cache. */
async function timedSitemap(server: CatalogueServer, path: string): Promise<SitemapTiming> {
  const times: number[] = [];
  let body = '';
  for (let i = 0; i < SITEMAP_RENDERS; i++) {
    const started = performance.now();
    const response = await fetch(`${server.base}${path}?render=${i}`);
    body = await response.text();
    times.push(performance.now() - started);
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}`);
  }
  times.sort((a, b) => a - b);
  return { path, ms: Number(times[Math.floor(times.length / 2)].toFixed(1)), bytes: body.length, urls: body.split('<url>').length - 1 };
}

async function measureSitemaps(server: CatalogueServer): Promise<SearchRow['sitemap']> {
  const index = await timedSitemap(server, '/sitemap.xml');
  const parts = [...(await fetch(`${server.base}/sitemap.xml?list`).then((r) => r.text())).matchAll(/\/sitemaps\/en-\d+\.xml/g)];
  // The first part is full; the last holds what is left. The parts between cost as much as the first.
  const measured = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  const english: SitemapTiming[] = [];
  for (const [part] of measured) english.push(await timedSitemap(server, part));
  return { indexMs: index.ms, partCount: parts.length, parts: english };
}

/** A latency and its ratio to the base row's, e.g. "31.2 (1.05×)". */
function withRatio(ms: number | null, baseMs: number | null | undefined): string {
  return baseMs && ms !== null ? `${ms} (${ratio(ms, baseMs).toFixed(2)}×)` : String(ms);
}

function ratio(ms: number, baseMs: number): number {
  return ms / baseMs;
}

/** The row of 1,000 activities, which the others are compared with. */
function baseRow(rows: SearchRow[]): SearchRow | undefined {
  return rows.find((row) => row.catalogue === 1000);
}

/** The scaling targets the rows miss, as sentences (empty without a 1,000 row). */
function missedTargets(rows: SearchRow[]): string[] {
  const base = baseRow(rows);
  if (!base) return [];
  const missed: string[] = [];
  for (const row of rows.filter((r) => r.catalogue >= 100_000)) {
    for (const key of ['p95', 'p99'] as const) {
      const r = ratio(row[key], base[key]);
      if (r > RATIO_TARGET) missed.push(`${key} at ${row.catalogue} is ${r.toFixed(2)}× the 1,000 row (target ${RATIO_TARGET}×)`);
    }
  }
  for (const row of rows.filter((r) => r.catalogue >= 1_000_000)) {
    for (const key of ['p50', 'p95', 'p99'] as const) {
      const r = ratio(row.broad[key], base.broad[key]);
      if (r > BROAD_RATIO_TARGET)
        missed.push(`broad ${key} at ${row.catalogue} is ${r.toFixed(2)}× the 1,000 row (target ${BROAD_RATIO_TARGET}×)`);
    }
  }
  return missed;
}

function table(report: SearchReport): string {
  const base = baseRow(report.rows);
  const lines = [
    `Search latency (GET ${searchPath('{keyword}')}), ${report.queries} queries in rotation;`,
    `the query mix asked once, then ${TIMED_PASSES} times (sequential requests, the catalogues' servers taking turns pass by pass) per catalogue for the percentiles, ${CONNECTIONS} connections for ${LOAD_DURATION_S} s for req/s;`,
    `${report.machine.cpus} CPUs (${report.machine.model}), Node ${report.machine.node}, ${report.date.slice(0, 10)}.`,
    '',
    `Each latency in ms with its ratio to the ${base ? base.catalogue.toLocaleString('en') : '(no)'}-activity row; broad: ${BROAD_QUERIES.join(', ')} alone, ${BROAD_REQUESTS} requests;`,
    "cpu: the server's CPU ms per request (wrangler and workerd, mean), which other work on the machine hardly moves.",
    '',
    '| Activities | load s | p50 | p95 | p99 | cpu | broad p50 | broad p95 | broad p99 | broad cpu | req/s |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...report.rows.map(
      (row) =>
        `| ${row.catalogue.toLocaleString('en')} | ${row.loadSeconds} | ${withRatio(row.p50, base?.p50)} | ${withRatio(row.p95, base?.p95)} | ${withRatio(row.p99, base?.p99)} | ${withRatio(row.cpu, base?.cpu)} | ${withRatio(row.broad.p50, base?.broad.p50)} | ${withRatio(row.broad.p95, base?.broad.p95)} | ${withRatio(row.broad.p99, base?.broad.p99)} | ${withRatio(row.broad.cpu, base?.broad.cpu)} | ${row.rps} |`,
    ),
    '',
    `Suggestions (GET ${suggestPath('{typed}')}): every prefix of the mix's artist names (English, Traditional, Simplified, pinyin), as typed a character at a time, ${SUGGEST_PASSES} requests each:`,
    '',
    '| Activities | prefixes | p50 | p95 | p99 | cpu |',
    '| ---: | ---: | ---: | ---: | ---: | ---: |',
    ...report.rows.map(
      (row) =>
        `| ${row.catalogue.toLocaleString('en')} | ${row.suggest.prefixes} | ${withRatio(row.suggest.p50, base?.suggest.p50)} | ${withRatio(row.suggest.p95, base?.suggest.p95)} | ${withRatio(row.suggest.p99, base?.suggest.p99)} | ${withRatio(row.suggest.cpu, base?.suggest.cpu)} |`,
    ),
    '',
    `Sitemaps, median of ${SITEMAP_RENDERS} renders each (the edge cache then keeps a built one for an hour):`,
    '',
    '| Activities | index ms | English files | first and last file: ms (URLs, MB) |',
    '| ---: | ---: | ---: | --- |',
    ...report.rows.map(
      (row) =>
        `| ${row.catalogue.toLocaleString('en')} | ${row.sitemap.indexMs} | ${row.sitemap.partCount} | ${row.sitemap.parts.map((part) => `${part.ms} (${part.urls.toLocaleString('en')}, ${(part.bytes / 1e6).toFixed(1)})`).join('; ')} |`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}

async function main() {
  const referenceTime = seedReferenceTime();
  const prepared: { size: number; persistTo: string; queries: string[]; loadSeconds: number }[] = [];
  for (const size of SIZES) prepared.push({ size, ...(await prepareDatabase(size, referenceTime)) });
  // The catalogues are ready: the build below and the measuring need no more than this.
  if (!process.env.BENCH_SKIP_BUILD) build();

  const rows: SearchRow[] = [];
  const servers: MeasuredServer[] = [];
  try {
    for (const [index, { persistTo, queries }] of prepared.entries()) {
      const server = { ...(await startCatalogueServer(persistTo, firstPort + index)), queries };
      servers.push(server);
      const swept = await sweepEnded(server);
      console.log(`swept ${path.relative(ROOT, persistTo)}: ${swept.ended} ended shows out of the live index in ${swept.seconds} s`);
    }
    const latencies = await measureLatencies(servers);
    for (const [index, { size, loadSeconds }] of prepared.entries()) {
      const row = {
        catalogue: size,
        ...latencies[index],
        rps: await measureThroughput(servers[index]),
        loadSeconds,
        sitemap: await measureSitemaps(servers[index]),
      };
      console.log(
        `${size} activities (loaded in ${loadSeconds} s), load average ${os.loadavg()[0].toFixed(2)}: p50 ${row.p50} ms, p95 ${row.p95} ms, p99 ${row.p99} ms, server CPU ${row.cpu} ms/request; broad p50 ${row.broad.p50} ms, p95 ${row.broad.p95} ms, p99 ${row.broad.p99} ms, CPU ${row.broad.cpu} ms/request; suggestions p50 ${row.suggest.p50} ms, p95 ${row.suggest.p95} ms, p99 ${row.suggest.p99} ms, CPU ${row.suggest.cpu} ms/request; ${row.rps} req/s; slowest: ${row.slowest.map((s) => `${s.keyword} ${s.ms} ms (${s.matches})`).join(', ')}`,
      );
      rows.push(row);
    }
  } finally {
    for (const server of servers) await server.stop();
  }

  const report: SearchReport = {
    date: new Date().toISOString(),
    machine: machine(),
    queries: prepared[0]?.queries.length ?? 0,
    p95BudgetMs: P95_BUDGET_MS,
    broadQueries: BROAD_QUERIES,
    rows,
  };
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(path.join(resultsDir, 'search.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${table(report)}\nWritten to ${path.relative(ROOT, path.join(resultsDir, 'search.json'))}`);
  const largest = rows.at(-1);
  if (largest && largest.p95 > P95_BUDGET_MS) console.log(`p95 at ${largest.catalogue} activities is over the ${P95_BUDGET_MS} ms budget.`);
  for (const missed of missedTargets(rows)) console.log(`Missed: ${missed}.`);
}

try {
  await main();
} catch (error) {
  console.error(`\nThe search benchmark could not run: ${(error as Error).message}`);
  process.exitCode = 1;
}
