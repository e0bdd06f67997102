/**
 * The answers of robots.txt and the sitemaps (src/pages/robots.txt.ts, sitemap.xml.ts, sitemaps/):
 * plain text or XML on the configured public origin, shared through the edge cache like the browse
 * pages (http/page-cache.ts keys them by the catalogue version). A deployed build without
 * PUBLIC_ORIGIN names no sitemap rather than one on the Host header.
 */
import type { APIContext } from 'astro';
import { env } from 'cloudflare:workers';
import { publicOrigin } from '../domain/public-origin.ts';
import { disallowedPaths, parseSitemapFilePath, robotsTxt } from '../domain/sitemap.ts';
import { ROUTES } from '../routes.ts';
import { sitemapIndex, sitemapPart } from '../services/catalogue/sitemap.ts';
import { pageScope } from './page-scope.ts';

/** Public routes reached only through a private link: nothing a search engine should hold. */
const PRIVATE_LINK_PATHS = ['/voucher', '/sandbox/'];

function xml(body: string): Response {
  return new Response(body, { headers: { 'content-type': 'application/xml; charset=utf-8' } });
}

function unavailable(): Response {
  console.error('PUBLIC_ORIGIN is not set (or not a URL): no sitemap is built on the request host.');
  return new Response(null, { status: 503, headers: { 'cache-control': 'no-store' } });
}

export function robotsAnswer(context: APIContext): Response {
  const body = robotsTxt(disallowedPaths(ROUTES, PRIVATE_LINK_PATHS), publicOrigin(env, context.url));
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
}

export async function sitemapIndexAnswer(context: APIContext): Promise<Response> {
  const origin = publicOrigin(env, context.url);
  if (!origin) return unavailable();
  const { db, reference, now } = await pageScope(context);
  return xml(await sitemapIndex(db, reference.categories, origin, now));
}

export async function sitemapPartAnswer(context: APIContext): Promise<Response> {
  const file = parseSitemapFilePath(context.url.pathname);
  if (!file) return new Response(null, { status: 404 });
  const origin = publicOrigin(env, context.url);
  if (!origin) return unavailable();
  const { db, reference, now } = await pageScope(context);
  const body = await sitemapPart(db, reference.categories, origin, file, now);
  return body === null ? new Response(null, { status: 404 }) : xml(body);
}
