/**
 * What search engines and link previews read: robots.txt, the sitemap index and each
 * locale's sitemap (checked against the sitemaps.org rules, every listed page answering, no
 * signed-in page listed, hreflang alternates reciprocal), the JSON-LD of each page type and sale
 * state, and the Open Graph and Twitter tags with absolute URLs and a reachable image.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { routeFor } from '../../src/lib/routes.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';
import { BASE_URL, detailOf } from './shop-helpers.ts';

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

const LOCALES = ['en', 'zh-HK', 'zh-TW', 'zh-CN'];
const SCHEMA = 'https://schema.org';
/** W3C datetime as sitemaps.org allows it: a date, or a date and time with a zone. */
const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;
/** ISO 8601 with the venue's offset, as event dates must be. */
const ZONED_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

interface SitemapUrl {
  loc: string;
  lastmod: string | null;
  alternates: Record<string, string>;
  /** Child elements the protocol does not allow in `<url>`. */
  unknown: string[];
}

interface ParsedXml {
  error: string | null;
  root: string;
  namespace: string | null;
  children: string[];
}

/** Parses XML with the browser's own parser, which refuses a document that is not well-formed. */
async function parseXml(page: Page, text: string): Promise<ParsedXml> {
  return page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const error = doc.querySelector('parsererror')?.textContent ?? null;
    const root = doc.documentElement;
    return { error, root: root.localName, namespace: root.namespaceURI, children: [...root.children].map((child) => child.localName) };
  }, text);
}

async function sitemapUrls(page: Page, text: string): Promise<SitemapUrl[]> {
  return page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    const sitemapNs = 'http://www.sitemaps.org/schemas/sitemap/0.9';
    const xhtmlNs = 'http://www.w3.org/1999/xhtml';
    return [...doc.documentElement.children].map((url) => {
      const own = (name: string) => [...url.children].filter((child) => child.namespaceURI === sitemapNs && child.localName === name);
      const alternates: Record<string, string> = {};
      for (const link of [...url.children].filter((child) => child.namespaceURI === xhtmlNs && child.localName === 'link')) {
        alternates[link.getAttribute('hreflang') ?? ''] = link.getAttribute('href') ?? '';
      }
      const allowed = new Set(['loc', 'lastmod', 'changefreq', 'priority']);
      return {
        loc: own('loc')[0]?.textContent ?? '',
        lastmod: own('lastmod')[0]?.textContent ?? null,
        alternates,
        unknown: [...url.children]
          .filter((child) => !(child.namespaceURI === sitemapNs && allowed.has(child.localName)) && child.namespaceURI !== xhtmlNs)
          .map((child) => child.localName),
      };
    });
  }, text);
}

async function indexLocs(page: Page, text: string): Promise<{ loc: string; lastmod: string | null }[]> {
  return page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    return [...doc.documentElement.children].map((sitemap) => ({
      loc: sitemap.getElementsByTagNameNS('http://www.sitemaps.org/schemas/sitemap/0.9', 'loc')[0]?.textContent ?? '',
      lastmod: sitemap.getElementsByTagNameNS('http://www.sitemaps.org/schemas/sitemap/0.9', 'lastmod')[0]?.textContent ?? null,
    }));
  }, text);
}

/** Every `Disallow:` of robots.txt. */
async function disallowed(request: APIRequestContext): Promise<string[]> {
  const text = await (await request.get('/robots.txt')).text();
  return text
    .split('\n')
    .filter((line) => line.startsWith('Disallow:'))
    .map((line) => line.slice('Disallow:'.length).trim());
}

test('robots.txt keeps crawlers from signed-in and checkout pages and names the sitemap index', async ({ request }) => {
  const response = await request.get('/robots.txt');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('text/plain');
  const text = await response.text();
  expect(text).toMatch(/^User-agent: \*$/m);
  expect(text).toContain(`Sitemap: ${BASE_URL}/sitemap.xml`);
  const paths = await disallowed(request);
  for (const path of [
    '/api/',
    '/orders',
    '/en/orders',
    '/zh-HK/order/',
    '/en/invitation',
    '/en/couponList',
    '/zh-CN/address/list',
    '/en/voucher',
  ]) {
    expect(paths, path).toContain(path);
  }
  for (const open of ['/en/', '/en/activity/1000', '/zh-HK/concerts', '/en/about', '/en/login']) {
    expect(
      paths.some((prefix) => open.startsWith(prefix)),
      open,
    ).toBe(false);
  }
});

test('the sitemaps list each locale with reciprocal alternates, only public pages, each answering 200', async ({ page, request }) => {
  // The sample of about 200 pages takes 10 to 20 s here, more on a busy machine.
  test.slow();
  // The XML is parsed by the page's DOMParser: any page of the site will do.
  await page.goto('/robots.txt');
  const index = await request.get('/sitemap.xml');
  expect(index.status()).toBe(200);
  expect(index.headers()['content-type']).toContain('application/xml');
  const indexText = await index.text();
  const parsedIndex = await parseXml(page, indexText);
  expect(parsedIndex.error).toBeNull();
  expect(parsedIndex).toMatchObject({ root: 'sitemapindex', namespace: 'http://www.sitemaps.org/schemas/sitemap/0.9' });
  expect(new Set(parsedIndex.children)).toEqual(new Set(['sitemap']));
  const files = await indexLocs(page, indexText);
  expect(files.map((file) => file.loc)).toEqual(LOCALES.map((locale) => `${BASE_URL}/sitemaps/${locale}-1.xml`));
  for (const file of files) expect(file.lastmod ?? '').toMatch(W3C_DATETIME);

  const blocked = await disallowed(request);
  const byLoc = new Map<string, SitemapUrl>();
  for (const [i, file] of files.entries()) {
    const response = await request.get(file.loc);
    expect(response.status(), file.loc).toBe(200);
    const text = await response.text();
    const parsed = await parseXml(page, text);
    expect(parsed.error, file.loc).toBeNull();
    expect(parsed).toMatchObject({ root: 'urlset', namespace: 'http://www.sitemaps.org/schemas/sitemap/0.9' });
    expect(new Set(parsed.children)).toEqual(new Set(['url']));
    const urls = await sitemapUrls(page, text);
    expect(urls.length).toBeGreaterThan(300);
    expect(urls.length).toBeLessThanOrEqual(50_000);
    for (const url of urls) {
      expect(url.unknown, url.loc).toEqual([]);
      expect(url.loc.length, url.loc).toBeLessThanOrEqual(2048);
      expect(url.loc.startsWith(`${BASE_URL}/${LOCALES[i]}/`), url.loc).toBe(true);
      if (url.lastmod !== null) expect(url.lastmod, url.loc).toMatch(W3C_DATETIME);
      const path = new URL(url.loc).pathname;
      expect(routeFor(path.slice(LOCALES[i].length + 1) || '/').auth, url.loc).toBe(false);
      expect(
        blocked.some((prefix) => path.startsWith(prefix)),
        url.loc,
      ).toBe(false);
      expect(Object.keys(url.alternates).sort(), url.loc).toEqual([...LOCALES].sort());
      expect(url.alternates[LOCALES[i]], url.loc).toBe(url.loc);
      byLoc.set(url.loc, url);
    }
  }
  // Reciprocal: every alternate is listed itself, naming the same set of pages.
  for (const url of byLoc.values()) {
    for (const href of Object.values(url.alternates)) expect(byLoc.get(href)?.alternates, `${url.loc} → ${href}`).toEqual(url.alternates);
  }

  // Every page that is not an activity, in every locale, and every tenth activity: each answers 200.
  const locs = [...byLoc.keys()];
  const sample = [
    ...locs.filter((loc) => !loc.includes('/activity/')),
    ...locs.filter((loc) => loc.includes('/activity/')).filter((_, i) => i % 10 === 0),
  ];
  for (let start = 0; start < sample.length; start += 4) {
    const statuses = await Promise.all(
      sample.slice(start, start + 4).map(async (loc) => [loc, (await request.get(loc)).status()] as const),
    );
    for (const [loc, status] of statuses) expect(status, loc).toBe(200);
  }
});

type JsonLd = Record<string, unknown> & { '@type': string };

async function jsonLdOf(page: Page): Promise<JsonLd[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.map((text) => JSON.parse(text) as JsonLd);
}

function eventsOf(blocks: JsonLd[]): JsonLd[] {
  return blocks.filter((block) => /Event$|^Festival$/.test(block['@type']));
}

/** Google's required event fields and the recommended ones we give, with an offer of the expected availability. */
function expectEvent(event: JsonLd, id: number, availability: string) {
  expect(event['@context']).toBe(SCHEMA);
  expect(typeof event.name === 'string' && event.name.length > 0).toBe(true);
  expect(event.startDate).toMatch(ZONED_DATETIME);
  expect(event.endDate).toMatch(ZONED_DATETIME);
  expect(event.eventAttendanceMode).toBe(`${SCHEMA}/OfflineEventAttendanceMode`);
  expect(event.url).toBe(`${BASE_URL}/en/activity/${id}`);
  expect((event.image as string[])[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/posters\/activity\/\d+\.jpg$/);
  expect(event.location).toMatchObject({
    '@type': 'Place',
    name: expect.any(String),
    address: { '@type': 'PostalAddress', streetAddress: expect.any(String), addressLocality: expect.any(String) },
    geo: { '@type': 'GeoCoordinates', latitude: expect.any(Number), longitude: expect.any(Number) },
  });
  expect(event.offers).toMatchObject({
    '@type': 'AggregateOffer',
    lowPrice: expect.stringMatching(/^\d+(\.\d+)?$/),
    highPrice: expect.stringMatching(/^\d+(\.\d+)?$/),
    priceCurrency: 'HKD',
    availability: `${SCHEMA}/${availability}`,
    validFrom: expect.stringMatching(ZONED_DATETIME),
    url: `${BASE_URL}/en/activity/${id}`,
  });
  expect(event.organizer).toMatchObject({ '@type': 'Organization', name: 'TicketWing' });
}

/** The first published activities (from 1000) in a sale state, by the detail API. */
async function activityIn(request: APIRequestContext, wanted: (detail: NonNullable<Awaited<ReturnType<typeof detailOf>>>) => boolean) {
  for (let id = 1000; id < 1400; id += 1) {
    const detail = await detailOf(request, id);
    if (detail && detail.sessions.length > 0 && wanted(detail)) return detail;
  }
  throw new Error('No such activity in the demo catalogue');
}

test('activity pages describe each session as an event with its offer, by sale state', async ({ page, request }) => {
  test.slow();
  const cases = [
    {
      label: 'on sale',
      availability: 'InStock',
      detail: await activityIn(request, (d) => d.saleState === 'onSale' && d.sessions.every((s) => s.hasTicket)),
    },
    { label: 'sold out', availability: 'SoldOut', detail: await activityIn(request, (d) => d.saleState === 'soldOut') },
    {
      label: 'not yet on sale',
      availability: 'PreOrder',
      detail: await activityIn(request, (d) => d.saleState === 'notOnSale' && d.notifyMe),
    },
  ];
  for (const { label, availability, detail } of cases) {
    await test.step(label, async () => {
      await page.goto(`/en/activity/${detail.id}`);
      const blocks = await jsonLdOf(page);
      const events = eventsOf(blocks);
      expect(events).toHaveLength(detail.sessions.length);
      for (const event of events) {
        expectEvent(event, detail.id, availability);
        expect(event.eventStatus).toBe(`${SCHEMA}/EventScheduled`);
      }
      const breadcrumbs = blocks.find((block) => block['@type'] === 'BreadcrumbList');
      expect(breadcrumbs?.itemListElement).toEqual([
        { '@type': 'ListItem', position: 1, name: 'Home', item: `${BASE_URL}/en/` },
        { '@type': 'ListItem', position: 2, name: detail.category.name, item: `${BASE_URL}/en/${detail.category.slug}` },
        { '@type': 'ListItem', position: 3, name: detail.name, item: `${BASE_URL}/en/activity/${detail.id}` },
      ]);
    });
  }
});

test('a cancelled session is a cancelled event beside the scheduled ones', async ({ page, request }) => {
  const detail = await activityIn(request, (d) => d.saleState === 'onSale' && d.id > 1100);
  // On the minute, so the event's start (written to the second) names this session.
  const startsAt = Math.floor((Date.now() + 25 * 24 * 3600_000) / 60_000) * 60_000;
  // Operations staff cancel through the API (show-changes.spec.ts); the page only reads the session's status.
  await fixture('create-session', {
    activityId: detail.id,
    startsAt,
    endsAt: startsAt + 3 * 3600_000,
    status: 'cancelled',
    changedAt: Date.now(),
  });
  // A query of its own: a copy of the page rendered before the change may be in the edge cache.
  await page.goto(`/en/activity/${detail.id}?session=${startsAt}`);
  const events = eventsOf(await jsonLdOf(page));
  const cancelled = events.find((event) => Date.parse(String(event.startDate)) === startsAt);
  expect(cancelled).toMatchObject({ eventStatus: `${SCHEMA}/EventCancelled`, offers: { availability: `${SCHEMA}/Discontinued` } });
  expect(events.filter((event) => event.eventStatus === `${SCHEMA}/EventScheduled`).length).toBeGreaterThan(0);
});

test('home names the organisation and its search, and list pages their breadcrumbs', async ({ page }) => {
  await page.goto('/zh-HK/');
  const home = await jsonLdOf(page);
  expect(home.find((block) => block['@type'] === 'Organization')).toMatchObject({ name: 'TicketWing', url: `${BASE_URL}/zh-HK/` });
  expect(home.find((block) => block['@type'] === 'WebSite')).toMatchObject({
    url: `${BASE_URL}/zh-HK/`,
    inLanguage: 'zh-HK',
    potentialAction: {
      '@type': 'SearchAction',
      target: { '@type': 'EntryPoint', urlTemplate: `${BASE_URL}/zh-HK/s_{search_term_string}` },
      'query-input': 'required name=search_term_string',
    },
  });

  await page.goto('/en/concerts');
  const list = await jsonLdOf(page);
  expect(list.find((block) => block['@type'] === 'BreadcrumbList')?.itemListElement).toEqual([
    { '@type': 'ListItem', position: 1, name: 'Home', item: `${BASE_URL}/en/` },
    { '@type': 'ListItem', position: 2, name: 'Concerts', item: `${BASE_URL}/en/concerts` },
  ]);
});

/** The page's Open Graph and Twitter tags, by key (a repeated key keeps its values in order). */
async function previewTags(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(() => {
    const tags: Record<string, string[]> = {};
    for (const meta of document.querySelectorAll('meta[property^="og:"], meta[name^="twitter:"]')) {
      const key = meta.getAttribute('property') ?? meta.getAttribute('name') ?? '';
      tags[key] = [...(tags[key] ?? []), meta.getAttribute('content') ?? ''];
    }
    return tags;
  });
}

async function expectPreview(page: Page, request: APIRequestContext, path: string, canonical = `${BASE_URL}${path.split('?')[0]}`) {
  await page.goto(path);
  const tags = await previewTags(page);
  for (const key of [
    'og:title',
    'og:description',
    'og:url',
    'og:image',
    'og:image:alt',
    'og:locale',
    'og:site_name',
    'twitter:card',
    'twitter:image',
  ]) {
    expect(tags[key]?.[0], `${path} ${key}`).toBeTruthy();
  }
  expect(tags['og:url'], path).toEqual([canonical]);
  expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toBe(canonical);
  expect(tags['og:locale:alternate'], path).toHaveLength(3);
  const image = tags['og:image'][0];
  expect(image, path).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
  expect(tags['twitter:image'], path).toEqual([image]);
  const answer = await request.get(image);
  expect(answer.status(), image).toBe(200);
  expect(answer.headers()['content-type'], image).toMatch(/^image\/(png|jpeg)/);
  return tags;
}

test('every public page type has a link preview with absolute URLs and an image that loads', async ({
  page,
  request,
  browser,
}, testInfo) => {
  test.slow();
  const home = await expectPreview(page, request, '/en/');
  expect(home['og:image']).toEqual([`${BASE_URL}/share-card.png`]);
  expect(home['og:image:width']).toEqual(['1200']);
  expect(home['og:image:height']).toEqual(['630']);
  expect(home['twitter:card']).toEqual(['summary_large_image']);
  await expectPreview(page, request, '/zh-HK/concerts');
  await expectPreview(page, request, '/en/about');
  await expectPreview(page, request, '/en/s_hong');

  const activity = await expectPreview(page, request, '/en/activity/1000');
  expect(activity['og:image']).toEqual([`${BASE_URL}/posters/activity/1000.jpg`]);
  expect(activity['og:description'][0]).toMatch(/·/);

  // A friend's invitation link: who invites and what the friend gets.
  const firstUser = await fixture('first-user', {});
  const inviter = { code: firstUser!.inviteCode, nickname: firstUser!.nickname };
  // The code stays in the canonical and preview URLs: a chat app that links to og:url must not lose it.
  const invitePath = `/en/login?inviteCode=${inviter.code}`;
  const invite = await expectPreview(page, request, invitePath, `${BASE_URL}${invitePath}`);
  expect(invite['og:title']).toEqual([`${inviter.nickname} invites you to TicketWing`]);
  expect(invite['og:description'][0]).toMatch(/^Register through this link and get: .+\.$/);
  // The card says what the friend gets, and nothing of the inviter: one card serves every invitation.
  await expectShareCard(request, invite, /\/share-cards\/en\/invitation-HKD-[0-9a-f]{16}\.jpg$/);

  // A lottery entry's share link: the show's poster and the prize a friend's help may win.
  const sharer = await browser.newContext({ baseURL: BASE_URL });
  await ownClientAddress(sharer, testInfo);
  await signUpByEmail(sharer.request, 'seo-sharer');
  const lotteries = (await (await sharer.request.get('/api/v1/lotteries')).json()) as { data: { id: number; phase: string }[] };
  const open = lotteries.data.find((lottery) => lottery.phase === 'open');
  expect(open, 'an open lottery').toBeTruthy();
  const lotteryPath = `/en/overload-ticket/detail?id=${open!.id}`;
  const lottery = await expectPreview(page, request, lotteryPath, `${BASE_URL}${lotteryPath}`);
  await expectShareCard(request, lottery, new RegExp(`/share-cards/en/lottery-${open!.id}-[0-9a-f]{16}\\.jpg$`));
  expect(lottery['og:description'][0]).toMatch(/^Win free tickets to .+, drawn .+\.$/);
  const joined = await sharer.request.post(`/api/v1/lotteries/${open!.id}/join`, { data: {} });
  const { data } = (await joined.json()) as { data: { myEntry: { sharePath: string } } };
  await sharer.close();
  const share = await expectPreview(page, request, `/en${data.myEntry.sharePath}`);
  // The share page shows the lottery's own card: the same for every sharer.
  expect(share['og:image']).toEqual(lottery['og:image']);
  expect(share['og:description'][0]).toMatch(/^Help .+ win free tickets to .+, drawn .+\.$/);
});

/** The pixel size of a JPEG: from its first start-of-frame segment. */
function jpegSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes[0] !== 0xff || bytes[1] !== 0xd8) return null;
  let at = 2;
  while (at + 9 < bytes.length && bytes[at] === 0xff) {
    const marker = bytes[at + 1];
    // SOF0 to SOF15, less DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    }
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

/** A share card named by a page's preview: a 1200x630 JPEG under its versioned path, answered again the same. */
async function expectShareCard(request: APIRequestContext, tags: Record<string, string[]>, path: RegExp) {
  const [url] = tags['og:image'];
  expect(url).toMatch(path);
  expect(url.startsWith(`${BASE_URL}/share-cards/`), url).toBe(true);
  expect(tags['og:image:type']).toEqual(['image/jpeg']);
  expect(tags['og:image:width']).toEqual(['1200']);
  expect(tags['og:image:height']).toEqual(['630']);
  expect(tags['twitter:card']).toEqual(['summary_large_image']);
  const answer = await request.get(url);
  expect(answer.status(), url).toBe(200);
  expect(answer.headers()['content-type']).toBe('image/jpeg');
  expect(answer.headers()['cache-control']).toContain('immutable');
  const body = await answer.body();
  expect(jpegSize(body), url).toEqual({ width: 1200, height: 630 });
  // Once stored (after the first answer), the edge cache answers the same card.
  await expect
    .poll(async () => {
      const again = await request.get(url);
      return again.headers()['x-share-card-cache'] === 'hit' && (await again.body()).equals(body);
    })
    .toBe(true);
}

test('a share card is drawn in the language of the page that names it, and an old version leads to the current one', async ({
  page,
  request,
}) => {
  test.slow();
  const cards = new Map<string, Buffer>();
  for (const locale of LOCALES) {
    await page.goto(`/${locale}/overload-ticket/detail?id=1`);
    const tags = await previewTags(page);
    await expectShareCard(request, tags, new RegExp(`/share-cards/${locale}/lottery-1-[0-9a-f]{16}\\.jpg$`));
    cards.set(locale, await (await request.get(tags['og:image'][0])).body());
  }
  // zh-HK and zh-TW read the same catalogue but name dates their own way; every language's card is its own.
  expect(new Set([...cards.values()].map((card) => card.toString('base64'))).size).toBe(LOCALES.length);

  await page.goto('/zh-HK/overload-ticket/detail?id=1');
  const current = new URL((await previewTags(page))['og:image'][0]).pathname;
  const outdated = await request.get('/share-cards/zh-HK/lottery-1-0123456789abcdef.jpg', { maxRedirects: 0 });
  expect(outdated.status()).toBe(302);
  expect(outdated.headers().location).toBe(current);
  expect((await request.get('/share-cards/zh-HK/lottery-999999-0123456789abcdef.jpg')).status()).toBe(404);
});
