/**
 * The marketplace API: a Hono app mounted under /api (and the spec's /api/api alias).
 * Request → context (language, currency, city) → route (zod) → service → D1, and back as the envelope.
 */
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie } from 'hono/cookie';
import { MAX_BODY_BYTES, REPLICA_BOOKMARK_COOKIE, TOKEN_COOKIE, USER_ID_COOKIE } from '../config/request.ts';
import { database } from '../data/client.ts';
import { DomainError } from '../domain/errors.ts';
import { imageTooLarge, MAX_IMAGE_BYTES } from '../domain/image-upload.ts';
import { publicOrigin } from '../domain/public-origin.ts';
import { bookmarkCookie, mayWrite, usableBookmark } from '../data/replica-bookmark.ts';
import { readRequestContext, type RequestContext } from '../domain/request-context.ts';
import { isAllowedOrigin, securityHeaders } from '../http/security.ts';
import { visitorOf } from '../domain/visitor.ts';
import { translator } from '../i18n/index.ts';
import { afterWriteWork } from '../services/platform/after-write.ts';
import { referenceData } from '../services/catalogue/reference-data.ts';
import type { ApiEnv } from './context.ts';
import { statusOf, type ErrorEnvelope } from './errors.ts';
import { catalogueRoutes } from './routes/catalogue.ts';
import { authRoutes } from './routes/auth.ts';
import { activityRoutes } from './routes/activity.ts';
import { calendarRoutes } from './routes/calendar.ts';
import { listingRoutes } from './routes/listing.ts';
import { searchRoutes } from './routes/search.ts';
import { keywordRoutes } from './routes/keywords.ts';
import { locationRoutes } from './routes/location.ts';
import { headerRoutes } from './routes/header.ts';
import { popupRoutes } from './routes/popups.ts';
import { preferenceRoutes } from './routes/preferences.ts';
import { addressRoutes } from './routes/addresses.ts';
import { attendeeRoutes } from './routes/attendees.ts';
import { orderRoutes } from './routes/orders.ts';
import { paymentRoutes } from './routes/payments.ts';
import { sellerRoutes } from './routes/seller.ts';
import { voucherRoutes } from './routes/vouchers.ts';
import { lotteryRoutes } from './routes/lottery.ts';
import { couponRoutes } from './routes/coupons.ts';
import { invitationRoutes } from './routes/invitations.ts';
import { gateRoutes } from './routes/gate.ts';
import { transferRoutes } from './routes/transfers.ts';
import { operatorRoutes } from './routes/operator.ts';
import { storefrontRoutes } from './routes/storefront.ts';
import { onSaleRoutes } from './routes/on-sales.ts';
import { rateRoutes } from './routes/rates.ts';
import { imageRoutes } from './routes/images.ts';
import { staffRoutes } from './routes/staff.ts';
import { staffSignInRoutes } from './routes/staff-sign-in.ts';
import { operatorCatalogueRoutes } from './routes/operator-catalogue.ts';
import { operatorActivityRoutes } from './routes/operator-activities.ts';
import { waitlistRoutes } from './routes/waitlist.ts';
import { attendeeChangeRoutes } from './routes/attendee-changes.ts';
import { mountLocalOnlyRoutes } from './routes/dev.ts';
import { waitingRoomRoutes } from './routes/waiting-room.ts';
import { durableOnSaleObjects } from '../durable-objects/on-sale-objects.ts';

const routes = new Hono<ApiEnv>()
  .route('/', catalogueRoutes)
  .route('/', authRoutes)
  .route('/', activityRoutes)
  .route('/', locationRoutes)
  .route('/', headerRoutes)
  .route('/', preferenceRoutes)
  .route('/', keywordRoutes)
  .route('/', popupRoutes)
  .route('/', calendarRoutes)
  .route('/', listingRoutes)
  .route('/', searchRoutes)
  .route('/', addressRoutes)
  .route('/', attendeeRoutes)
  .route('/', orderRoutes)
  .route('/', paymentRoutes)
  .route('/', sellerRoutes)
  .route('/', voucherRoutes)
  .route('/', lotteryRoutes)
  .route('/', couponRoutes)
  .route('/', invitationRoutes)
  .route('/', transferRoutes)
  .route('/', gateRoutes)
  .route('/', operatorRoutes)
  .route('/', storefrontRoutes)
  .route('/', onSaleRoutes)
  .route('/', rateRoutes)
  .route('/', imageRoutes)
  .route('/', staffRoutes)
  .route('/', staffSignInRoutes)
  .route('/', operatorCatalogueRoutes)
  .route('/', operatorActivityRoutes)
  .route('/', waitlistRoutes)
  .route('/', attendeeChangeRoutes)
  .route('/', waitingRoomRoutes);

/** The routes' type, for the browser's typed client (hono/client's hc). */
export type AppType = typeof routes;

// Not strict: the home config answers at both /api and /api/.
export const api = new Hono<ApiEnv>({ strict: false });

/** Signed by their provider, which is their only proof of origin: no browser ever sends them. */
const WEBHOOK_PATH = /^\/api(?:\/api)?\/v1\/payments\/webhooks\//;

// First, so that every answer carries them, errors included.
api.use('*', async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(securityHeaders({ production: c.env.APP_ENV !== 'local', apiPolicy: true }))) {
    if (!c.res.headers.has(name)) c.res.headers.set(name, value);
  }
});

// The cookies' choices by the pages' one parser (domain/visitor.ts), so that a call and a page read one cookie alike.
function readContext(c: Context<ApiEnv>, knownCurrencies: ReadonlySet<string>): RequestContext {
  const visitor = visitorOf({
    url: new URL(c.req.url),
    cookieHeader: c.req.header('cookie') ?? null,
    acceptLanguage: c.req.header('accept-language') ?? null,
  });
  return readRequestContext({
    header: (name) => c.req.header(name),
    visitor,
    ignoreCityId: c.req.query('ignoreCityId') === 'true',
    knownCurrencies,
  });
}

// Before any database work: an oversized body costs no D1 read. The refusal still speaks the caller's
// language, which needs no database (only the currency does).
const anyBodyLimit = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: (c) => {
    c.set('t', translator(readContext(c, new Set()).locale));
    throw new DomainError('payload_too_large');
  },
});
// An image upload is the one larger body: the image's own limit plus room for the form around it.
const imageUploadLimit = bodyLimit({
  maxSize: MAX_IMAGE_BYTES + MAX_BODY_BYTES,
  onError: (c) => {
    c.set('t', translator(readContext(c, new Set()).locale));
    throw imageTooLarge();
  },
});
const IMAGE_UPLOAD_PATH = /^\/api(?:\/api)?\/v1\/operator\/images\/?$/;
api.use('*', (c, next) => (IMAGE_UPLOAD_PATH.test(c.req.path) ? imageUploadLimit : anyBodyLimit)(c, next));

api.use('*', async (c, next) => {
  const db = database(c.env.DB, usableBookmark(getCookie(c, REPLICA_BOOKMARK_COOKIE)));
  const now = Date.now();
  const reference = await referenceData(db, now, null);
  const currencies = reference.currencyTable;
  const ctx = readContext(c, new Set(currencies.keys()));
  c.set('db', db);
  c.set('ctx', ctx);
  c.set('currencies', currencies);
  c.set('t', translator(ctx.locale));
  const deferred: Promise<unknown>[] = [];
  const waitUntil = (work: Promise<unknown>) => {
    try {
      c.executionCtx.waitUntil(work);
    } catch {
      deferred.push(work);
    }
  };
  c.set('scope', { db, ctx, currencies, reference, now, env: c.env, onSales: durableOnSaleObjects(c.env), waitUntil });
  const afterWrite = mayWrite(c.req.method) ? afterWriteWork(db, c.env.MESSAGES, publicOrigin(c.env, c.req.url)) : null;
  c.set('afterWrite', afterWrite);
  await next();
  // No execution context (the API called in-process, as the tests do): work meant for after the answer finishes before it.
  await Promise.all(deferred);
  // A write route that only writes a Durable Object's storage (a waiting room's join) leaves D1 as it
  // was: nothing to settle, no bookmark to hand over, and a hot on-sale's joins add no D1 writes.
  const wroteD1 = afterWrite !== null && !c.var.d1Untouched;
  if (wroteD1) {
    const settling = afterWrite.settle(Date.now());
    try {
      c.executionCtx.waitUntil(settling);
    } catch {
      // No execution context (the API called in-process, as the tests do): settle before answering.
      await settling;
    }
  }
  // After a write the browser keeps its bookmark, so its next reads see the write whichever replica answers.
  const bookmark = wroteD1 ? afterWrite.bookmark() : null;
  if (bookmark) {
    const secure = c.env.APP_ENV !== 'local' || new URL(c.req.url).protocol === 'https:';
    c.header('Set-Cookie', bookmarkCookie(bookmark, secure), { append: true });
  }
});

// No cross-site write reaches a route (the refusal is in the caller's language, hence after the context).
api.use('*', async (c, next) => {
  const url = new URL(c.req.url);
  const allowed =
    // The decoded path, which Hono routes on: whatever the spelling, the exemption goes with the webhook route.
    WEBHOOK_PATH.test(c.req.path) ||
    isAllowedOrigin({
      method: c.req.method,
      origin: c.req.header('origin'),
      secFetchSite: c.req.header('sec-fetch-site'),
      contentType: c.req.header('content-type'),
      ownOrigins: [url.origin, publicOrigin(c.env, url)].filter((origin) => origin !== null),
    });
  if (!allowed) throw new DomainError('cross_site_request');
  await next();
});

// The canonical base is /api; the spec's clients also call /api/api/..., served by the same routes.
api.route('/api/api', routes);
api.route('/api', routes);

// The dev routes and the API document are compiled into a local build only (integrations/local-build.ts).
if (LOCAL_BUILD) mountLocalOnlyRoutes(api, routes);

function errorResponse(c: Context<ApiEnv>, error: unknown): Response {
  const t = c.get('t') ?? translator('en');
  if (error instanceof DomainError) {
    const status = statusOf(error);
    // A 401 means the session is gone: clear both session cookies, the HttpOnly token included.
    if (status === 401) for (const name of [TOKEN_COOKIE, USER_ID_COOKIE]) deleteCookie(c, name, { path: '/' });
    const body: ErrorEnvelope = {
      code: status,
      data: null,
      message: t(`error.${error.code}`, error.params),
      errorCode: error.code,
      ...(error.field ? { field: error.field } : {}),
    };
    return c.json(body, status);
  }
  console.error('Unhandled API error', c.req.method, c.req.path, error);
  const body: ErrorEnvelope = { code: 500, data: null, message: t('error.internal'), errorCode: 'internal' };
  return c.json(body, 500);
}

api.notFound((c) => errorResponse(c, new DomainError('not_found')));
api.onError((error, c) => errorResponse(c, error));
