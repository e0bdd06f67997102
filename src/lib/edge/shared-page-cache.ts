/**
 * The edge cache of shared browse pages, in front of Astro: an anonymous visitor's home, listing,
 * activity or info page is served from the Cache API of the data centre under the key of
 * http/page-cache.ts, rendered at most once per PAGE_CACHE_FRESH_MS for everyone who shares that
 * key, and re-rendered in the background when it turns stale; anyone's robots.txt or sitemap
 * likewise, within the longer windows of CRAWLER_FILE_FRESH_MS and CRAWLER_FILE_STALE_MS. While an
 * answer is fresh, the isolate also keeps it in memory (http/page-memory.ts) and answers it from
 * there, without a Cache API lookup. Anything else, and every answer whose render kept it for its
 * visitor (a cookie set, a private page: keepUnshared in page-request.ts), goes to Astro and back
 * untouched.
 */
import {
  CATALOGUE_VERSION_REUSE_MS,
  CRAWLER_FILE_FRESH_MS,
  CRAWLER_FILE_STALE_MS,
  PAGE_CACHE_FRESH_MS,
  PAGE_CACHE_STALE_MS,
  PAGE_MEMORY_BYTES,
} from '../config/caching.ts';
import { database } from '../data/client.ts';
import { cachedPageState, isCrawlerFile, sharedPageKeyOf } from '../http/page-cache.ts';
import { PageMemory } from '../http/page-memory.ts';
import type { Visitor } from '../domain/visitor.ts';
import { catalogueVersions, type CatalogueVersions } from '../services/catalogue/reference-data.ts';

/** Says how the answer was made: hit, stale (served while re-rendering), miss (rendered and stored) or bypass. */
export const PAGE_CACHE_HEADER = 'X-Page-Cache';
const RENDERED_AT_HEADER = 'X-Rendered-At';

/** How long a stored answer is fresh, then served stale while a new render replaces it. */
interface CacheWindows {
  freshMs: number;
  staleMs: number;
}

const PAGE_WINDOWS: CacheWindows = { freshMs: PAGE_CACHE_FRESH_MS, staleMs: PAGE_CACHE_STALE_MS };
const CRAWLER_FILE_WINDOWS: CacheWindows = { freshMs: CRAWLER_FILE_FRESH_MS, staleMs: CRAWLER_FILE_STALE_MS };

/** What browsers and other shared caches are told: a shared cache may keep it as the edge does; a browser asks again. */
function sharedCacheControl({ freshMs, staleMs }: CacheWindows): string {
  return `public, max-age=0, s-maxage=${freshMs / 1000}, stale-while-revalidate=${staleMs / 1000}`;
}

/** The copy in the Cache API lives through both windows; its own age decides fresh or stale. */
function storedCacheControl({ freshMs, staleMs }: CacheWindows): string {
  return `public, max-age=${(freshMs + staleMs) / 1000}`;
}

/** One render of the page: its answer, and whether the page let the shared page cache keep it (page-request.ts). */
export interface RenderedPage {
  response: Response;
  shareable: boolean;
}

/**
 * Renders the page; `referenceVersion` is the reference tables' version this layer read for the
 * request (null when it read none), which the page checks its in-memory copy against.
 */
type Render = (request: Request, referenceVersion: number | null) => Promise<RenderedPage>;

/** The data centre's cache: Workers' caches.default (the DOM's CacheStorage type, also in scope for the islands, lacks it). */
function edgeCache(): Cache {
  return (caches as unknown as { default: Cache }).default;
}

/** Keys being re-rendered in this isolate: a burst of requests for a stale page renders it once. */
const refreshing = new Set<string>();

/** Whether a render may be shared: a whole 200 page or crawler file whose render did not keep it for this visitor. */
function shareable(rendered: RenderedPage): boolean {
  return rendered.response.status === 200 && rendered.shareable;
}

/** The headers of a shared answer: how it was made, and what shared caches may do with it. */
function labelHeaders(headers: Headers, state: 'hit' | 'stale' | 'miss' | 'bypass', windows: CacheWindows): void {
  headers.set(PAGE_CACHE_HEADER, state);
  if (state === 'bypass') return;
  headers.set('Cache-Control', sharedCacheControl(windows));
  headers.set('Vary', 'Cookie, Accept-Language');
  headers.delete(RENDERED_AT_HEADER);
}

function labelled(response: Response, state: 'hit' | 'stale' | 'miss' | 'bypass', windows = PAGE_WINDOWS): Response {
  const answer = new Response(response.body, response);
  labelHeaders(answer.headers, state, windows);
  return answer;
}

/** A shared answer held in the isolate's memory: its whole body and the headers of a hit, ready to answer with. */
interface RememberedPage {
  body: ArrayBuffer;
  init: { status: number; headers: [string, string][] };
  renderedAt: number;
  windows: CacheWindows;
}

const memory = new PageMemory<RememberedPage>(PAGE_MEMORY_BYTES);

/** Keeps a shared answer (its body already read) in memory under its key, labelled as the hit it will answer. */
function remember(key: string, response: Response, body: ArrayBuffer, renderedAt: number, windows: CacheWindows): void {
  const headers = new Headers(response.headers);
  labelHeaders(headers, 'hit', windows);
  memory.set(key, { body, init: { status: response.status, headers: [...headers] }, renderedAt, windows }, body.byteLength);
}

/** The remembered answer under the key while it is fresh; a stale one is left to the Cache API path, which refreshes it. */
function rememberedAnswer(key: string, now: number): Response | null {
  const page = memory.get(key);
  if (!page) return null;
  if (cachedPageState(page.renderedAt, now, page.windows.freshMs, page.windows.staleMs) !== 'fresh') {
    memory.delete(key);
    return null;
  }
  return new Response(page.body, page.init);
}

/** Puts a copy of a rendered shared answer into the Cache API and the isolate's memory, once its body has been read. */
async function store(key: string, copy: Response, renderedAt: number, windows: CacheWindows): Promise<void> {
  const body = await copy.arrayBuffer();
  const stored = new Response(body, copy);
  stored.headers.set('Cache-Control', storedCacheControl(windows));
  stored.headers.set(RENDERED_AT_HEADER, String(renderedAt));
  remember(key, copy, body, renderedAt, windows);
  await edgeCache().put(key, stored);
}

/** Renders the page and, when it may be shared, stores a copy under the key; answers the render. */
async function renderAndStore(
  request: Request,
  key: string,
  render: Render,
  versions: CatalogueVersions,
  now: number,
  ctx: ExecutionContext,
  windows: CacheWindows,
): Promise<Response> {
  const rendered = await render(request, versions.reference);
  const { response } = rendered;
  if (!shareable(rendered)) return labelled(response, 'bypass');
  ctx.waitUntil(store(key, response.clone(), now, windows));
  return labelled(response, 'miss', windows);
}

let lastRead: { versions: CatalogueVersions; at: number } | null = null;

/** The catalogue's versions, read at most once per CATALOGUE_VERSION_REUSE_MS in this isolate. */
async function currentVersions(env: Cloudflare.Env, now: number): Promise<CatalogueVersions> {
  if (lastRead && now - lastRead.at < CATALOGUE_VERSION_REUSE_MS) return lastRead.versions;
  const versions = await catalogueVersions(database(env.DB));
  lastRead = { versions, at: now };
  return versions;
}

/**
 * The answer to a page request (`url` is its URL, parsed), from the cache or rendered by `render`. The
 * visitor is the one parsed for this request, which `render` must render from: the key is made of it.
 */
export async function sharedPage(
  request: Request,
  url: URL,
  visitor: Visitor,
  env: Cloudflare.Env,
  ctx: ExecutionContext,
  render: Render,
): Promise<Response> {
  // The version costs a database read: only a request that could be shared asks for it.
  const keyOfVersion = sharedPageKeyOf({ method: request.method, url, visitor });
  if (keyOfVersion === null) return labelled((await render(request, null)).response, 'bypass');
  const now = Date.now();
  let versions: CatalogueVersions;
  try {
    versions = await currentVersions(env, now);
  } catch (error) {
    // Without the version no key is safe to read or store: this visitor gets a page of their own.
    console.error(JSON.stringify({ event: 'page_cache_version_unread', error: String(error) }));
    return labelled((await render(request, null)).response, 'bypass');
  }
  const key = keyOfVersion(versions.catalogue);
  const fromMemory = rememberedAnswer(key, now);
  if (fromMemory) return fromMemory;
  const windows = isCrawlerFile(url.pathname) ? CRAWLER_FILE_WINDOWS : PAGE_WINDOWS;
  const cached = await edgeCache().match(key);
  const renderedAt = Number(cached?.headers.get(RENDERED_AT_HEADER));
  const state = cached ? cachedPageState(renderedAt, now, windows.freshMs, windows.staleMs) : 'expired';
  if (cached && state === 'fresh') {
    // Another isolate (or this one, before its memory let it go) rendered it: keep it here too.
    const body = await cached.arrayBuffer();
    remember(key, cached, body, renderedAt, windows);
    const answer = new Response(body, cached);
    labelHeaders(answer.headers, 'hit', windows);
    return answer;
  }
  if (cached && state === 'stale') {
    if (!refreshing.has(key)) {
      refreshing.add(key);
      const refresh = renderAndStore(request, key, render, versions, now, ctx, windows).then((answer) => answer.body?.cancel());
      ctx.waitUntil(refresh.finally(() => refreshing.delete(key)));
    }
    return labelled(cached, 'stale', windows);
  }
  return renderAndStore(request, key, render, versions, now, ctx, windows);
}
