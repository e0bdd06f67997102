/**
 * A page request is parsed once, here, into what the edge layer knows of it: the visitor
 * (domain/visitor.ts), by which the shared page cache keys the page and Astro renders it, and the
 * reference tables' version that cache read. It travels to Astro with the request's execution
 * context, which the Cloudflare adapter gives the page as `locals.cfContext`; the middleware puts it
 * in `locals.edge` (and the visitor in `locals.visitor`), where pages and loaders read it, never the
 * cookies or a header. The render answers back through the same object whether it may be shared.
 */
import type { AstroGlobal } from 'astro';
import { PERSONAL_CACHE_CONTROL } from '../config/request.ts';
import { visitorOf, type Visitor } from '../domain/visitor.ts';
import { withoutLocalePrefix } from './locale-prefix.ts';
import { sharedPage } from './shared-page-cache.ts';

export interface EdgeContext {
  visitor: Visitor;
  /**
   * The reference tables' version the shared page cache read for this request, against which the page
   * checks its in-memory copy for free (services/catalogue/reference-data.ts); null when none was read.
   */
  referenceVersion: number | null;
  /**
   * Whether the shared page cache may keep a 200 answer of this render for everyone under its key
   * (http/page-cache.ts decided the request may be; this says the answer may). Whatever makes the
   * answer this visitor's own (a cookie it sets, a private page) turns it off with keepUnshared.
   */
  shareable: boolean;
}

/** Marks the page being rendered as this visitor's own: the shared page cache never keeps it. */
export function keepUnshared(locals: Pick<App.Locals, 'edge'>): void {
  locals.edge.shareable = false;
}

/** A page of this visitor's alone (a payment's time left, a sandbox's state): no cache keeps it, the edge's nor any other. */
export function keepPrivate(astro: Pick<AstroGlobal, 'locals' | 'response'>): void {
  astro.response.headers.set('Cache-Control', PERSONAL_CACHE_CONTROL);
  keepUnshared(astro.locals);
}

const handed = new WeakMap<ExecutionContext, EdgeContext>();

/** What the worker parsed for the request of this execution context. */
export function handedEdgeContext(ctx: ExecutionContext): EdgeContext {
  const edge = handed.get(ctx);
  // Pages render only through answerPage: one rendered otherwise would have no choices to render from.
  if (!edge) throw new Error('A page was rendered without the visitor its request was parsed into');
  return edge;
}

/** Renders a page request, routed as Astro wants it (`render` is Astro's fetch handler). */
type RenderPage = (routed: Request, env: Cloudflare.Env, ctx: ExecutionContext) => Promise<Response>;

/** A page request's answer, from the shared page cache or rendered, for the visitor its headers name. */
export function answerPage(request: Request, url: URL, env: Cloudflare.Env, ctx: ExecutionContext, render: RenderPage): Promise<Response> {
  const visitor = visitorOf({ url, cookieHeader: request.headers.get('cookie'), acceptLanguage: request.headers.get('accept-language') });
  return sharedPage(request, url, visitor, env, ctx, async (page, referenceVersion) => {
    const edge: EdgeContext = { visitor, referenceVersion, shareable: true };
    handed.set(ctx, edge);
    const response = await render(withoutLocalePrefix(page, visitor.locale), env, ctx);
    return { response, shareable: edge.shareable };
  });
}
