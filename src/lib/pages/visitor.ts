/**
 * A page request's visitor is parsed once (domain/visitor.ts), here: the shared page cache keys the
 * page by it and Astro renders the page from it. It travels to Astro with the request's execution
 * context, which the Cloudflare adapter gives the page as `locals.cfContext`; the middleware puts it
 * in `locals.visitor`, where every page and component reads it (never the cookies themselves).
 */
import { visitorOf, type Visitor } from '../domain/visitor.ts';
import { withoutLocalePrefix } from './locale-prefix.ts';
import { sharedPage } from './shared-page-cache.ts';

const handed = new WeakMap<ExecutionContext, Visitor>();

/** The visitor the worker parsed for the request of this execution context. */
export function handedVisitor(ctx: ExecutionContext): Visitor {
  const visitor = handed.get(ctx);
  // Pages render only through answerPage: one rendered otherwise would have no choices to render from.
  if (!visitor) throw new Error('A page was rendered without the visitor its request was parsed into');
  return visitor;
}

/** Renders a page request, routed as Astro wants it (`render` is Astro's fetch handler). */
type RenderPage = (routed: Request, env: Cloudflare.Env, ctx: ExecutionContext) => Promise<Response>;

/** A page request's answer, from the shared page cache or rendered, for the visitor its headers name. */
export function answerPage(request: Request, url: URL, env: Cloudflare.Env, ctx: ExecutionContext, render: RenderPage): Promise<Response> {
  const visitor = visitorOf({ url, cookieHeader: request.headers.get('cookie'), acceptLanguage: request.headers.get('accept-language') });
  handed.set(ctx, visitor);
  return sharedPage(request, url, visitor, env, ctx, (page) => render(withoutLocalePrefix(page, visitor.locale), env, ctx));
}
