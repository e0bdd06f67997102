import { env } from 'cloudflare:workers';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import { pageScope } from '../../src/lib/edge/page-scope.ts';
import { headerData } from '../../src/lib/loaders/header.ts';
import { PAGE_CACHE_HEADER, sharedPage } from '../../src/lib/edge/shared-page-cache.ts';
import { answerPage, handedEdgeContext } from '../../src/lib/edge/page-request.ts';
import { visitorOf } from '../../src/lib/domain/visitor.ts';
import { seed } from './helpers.ts';

/** A database whose every query fails, as D1 does when its connection drops. */
const unreachableDb = {
  withSession: () => ({
    prepare: () => {
      throw new Error('D1_ERROR: Network connection lost.');
    },
    getBookmark: () => null,
  }),
} as unknown as D1Database;

/**
 * Astro's part of a page request, as the layout's header renders it: the language, the current city
 * and currency of the page scope (edge/page-scope.ts, headerData) and the account menu or the login
 * link, all from the visitor the worker handed over. A page at `?private` keeps itself unshared.
 */
async function renderHeader(routed: Request, _env: Cloudflare.Env, ctx: ExecutionContext): Promise<Response> {
  const edge = handedEdgeContext(ctx);
  const { visitor } = edge;
  const locale = visitor.locale.locale;
  const locals = { edge, visitor, locale, db: database(env.DB) } as App.Locals;
  if (new URL(routed.url).searchParams.has('private')) edge.shareable = false;
  const scope = await pageScope({ locals });
  const { city } = headerData(scope);
  const account = visitor.session ? '<details class="menu">account</details>' : '<a class="avatar">login</a>';
  const html = `<!doctype html><html lang="${locale}"><header><button class="city">${city.name}</button><span class="currency">${scope.ctx.currency}</span>${account}</header></html>`;
  return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } });
}

interface Header {
  cache: string | null;
  lang: string | undefined;
  city: string | undefined;
  currency: string | undefined;
  signedIn: boolean;
}

/** A page request through the worker's page path, its cache store finished before it answers. */
async function visit(path: string, cookie?: string): Promise<Header> {
  const ctx = createExecutionContext();
  const request = new Request(`http://localhost${path}`, { headers: cookie === undefined ? {} : { cookie } });
  const answer = await answerPage(request, new URL(request.url), env, ctx, renderHeader);
  const html = await answer.text();
  await waitOnExecutionContext(ctx);
  return {
    cache: answer.headers.get(PAGE_CACHE_HEADER),
    lang: html.match(/<html lang="([^"]+)"/)?.[1],
    city: html.match(/<button class="city">([^<]+)</)?.[1],
    currency: html.match(/<span class="currency">([^<]+)</)?.[1],
    signedIn: html.includes('class="menu"'),
  };
}

let pages = 0;
/** A URL no earlier visit shared (the query is part of the key). */
const freshPath = (path: string) => `${path}?case=${++pages}`;

beforeAll(() => seed());

describe('the shared page cache', () => {
  it('renders a page for the visitor alone when the catalogue version cannot be read, instead of failing', async () => {
    const rendered: Request[] = [];
    const request = new Request('http://localhost/en/');
    const url = new URL(request.url);
    const answer = await sharedPage(
      request,
      url,
      visitorOf({ url, cookieHeader: null, acceptLanguage: null }),
      { ...env, DB: unreachableDb },
      createExecutionContext(),
      async (page, referenceVersion) => {
        rendered.push(page);
        expect(referenceVersion).toBeNull();
        return {
          response: new Response('<!doctype html><title>Home</title>', { headers: { 'content-type': 'text/html' } }),
          shareable: true,
        };
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get(PAGE_CACHE_HEADER)).toBe('bypass');
    expect(await answer.text()).toContain('<title>Home</title>');
    expect(rendered).toHaveLength(1);
  });

  it('serves a visitor the page of their choices, the second time from the cache', async () => {
    const path = freshPath('/about');
    const singapore = 'language=zh-CN; currencyCode=SGD; cityId=350';
    expect(await visit(path, singapore)).toEqual({ cache: 'miss', lang: 'zh-CN', city: '新加坡', currency: 'SGD', signedIn: false });
    expect(await visit(path, singapore)).toMatchObject({ cache: 'hit', lang: 'zh-CN', city: '新加坡', currency: 'SGD' });
  });

  it('never stores a page its render kept unshared', async () => {
    const path = `${freshPath('/about')}&private`;
    expect(await visit(path)).toMatchObject({ cache: 'bypass', lang: 'en' });
    expect(await visit(path)).toMatchObject({ cache: 'bypass', lang: 'en' });
    expect(await visit(freshPath('/about'))).toMatchObject({ cache: 'miss' });
  });

  it('never stores a page under a currency, city or language other than the one it was rendered in', async () => {
    const poisonings: { cookie: string; clean: string; expected: Partial<Header> }[] = [
      { cookie: 'currencyCode="USD"', clean: 'currencyCode=USD', expected: { currency: 'USD' } },
      { cookie: 'currencyCode=%55SD', clean: 'currencyCode=USD', expected: { currency: 'USD' } },
      { cookie: 'currencyCode=USD; currencyCode=SGD', clean: 'currencyCode=USD', expected: { currency: 'USD' } },
      { cookie: 'currencyCode=SGD; currencyCode=USD', clean: 'currencyCode=USD', expected: { currency: 'USD' } },
      { cookie: 'currencyCode=US\\; currencyCode=USD', clean: 'currencyCode=USD', expected: { currency: 'USD' } },
      { cookie: 'cityId=35\\; cityId=350', clean: 'cityId=350', expected: { city: 'Singapore' } },
      { cookie: 'cityId=350; cityId=35\\', clean: 'cityId=350', expected: { city: 'Singapore' } },
      { cookie: 'cityId="350"', clean: 'cityId=350', expected: { city: 'Singapore' } },
      { cookie: 'language="zh-CN"', clean: 'language=zh-CN', expected: { lang: 'zh-CN' } },
      { cookie: 'language=xx; language=zh-CN', clean: 'language=zh-CN', expected: { lang: 'zh-CN' } },
      { cookie: 'language=en; language=zh-CN', clean: 'language=zh-CN', expected: { lang: 'zh-CN' } },
      { cookie: 'language=zh\\; language=zh-CN', clean: 'language=zh-CN', expected: { lang: 'zh-CN' } },
    ];
    for (const { cookie, clean, expected } of poisonings) {
      const path = freshPath('/about');
      await visit(path, cookie);
      expect(await visit(path, clean), `${cookie}, then ${clean}`).toMatchObject(expected);
      // And a visitor who made no choice gets the fallbacks, whatever was stored before.
      expect(await visit(path), `${cookie}, then no cookie`).toMatchObject({ lang: 'en', city: 'Hong Kong', currency: 'HKD' });
    }
  });

  it('renders a malformed or repeated session cookie for the visitor alone, and an anonymous header for everyone else', async () => {
    for (const cookie of ['pner=x\\y; pnid=1\\', 'pner=abc; pnid=7; pnid=8', 'pner="abc"; pnid=7', 'pnid=7', 'pner=abc; pnid=7']) {
      const path = freshPath('/en/');
      expect((await visit(path, cookie)).cache, cookie).toBe('bypass');
      expect(await visit(path), `${cookie}, then no cookie`).toMatchObject({ cache: 'miss', signedIn: false });
      expect(await visit(path), `${cookie}, then no cookie again`).toMatchObject({ cache: 'hit', signedIn: false });
    }
  });
});
