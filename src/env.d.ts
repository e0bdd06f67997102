/// <reference types="astro/client" />

/** A WebAssembly file imported by the worker arrives compiled (Cloudflare's Vite plugin); Workers compile none at run time. */
declare module '*.wasm' {
  const module: WebAssembly.Module;
  export default module;
}

/**
 * True in a local build (LOCAL_BUILD=1, integrations/local-build.ts), false in a production one: replaced at
 * build time, so a production bundle holds no code behind `if (LOCAL_BUILD)`.
 */
declare const LOCAL_BUILD: boolean;

declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    /** The static assets (the adapter binds the build's client folder): the share cards read their fonts and posters here. */
    ASSETS: Fetcher;
    /** One inventory object per high-demand session (src/lib/durable-objects/session-inventory.ts): its holds, written to DB in batches. */
    SESSION_INVENTORY: DurableObjectNamespace<import('./durable-objects.ts').SessionInventory>;
    /** Messages to deliver (src/lib/services/messages/delivery.ts): the outbox relay produces, the worker's `queue` handler consumes. */
    MESSAGES: Queue<import('./lib/services/messages/delivery.ts').QueuedMessage>;
    /** Uploaded posters and banners: master JPEGs and variants (src/lib/services/media/images.ts). */
    MEDIA: R2Bucket;
    /** Cloudflare Images: decodes, resizes and encodes an upload's variants (docs/decisions/images.md). */
    IMAGES: ImagesBinding;
    /** 'local' relaxes Secure cookies and, in a local build only, opens the dev routes, sandbox and dev outbox; 'production' never does. */
    APP_ENV: 'local' | 'production';
    /** Our mail/SMS relay (src/lib/services/messages/providers/relay.ts): the default provider of both channels when set. */
    MESSAGING_WEBHOOK_URL?: string;
    /** Bearer token sent to the relay. */
    MESSAGING_WEBHOOK_TOKEN?: string;
    /** Who sends email in a deployed build: 'resend' or 'relay' (default: relay when MESSAGING_WEBHOOK_URL is set). */
    EMAIL_PROVIDER?: string;
    /** Who sends SMS in a deployed build: 'twilio' or 'relay' (default: relay when MESSAGING_WEBHOOK_URL is set). */
    SMS_PROVIDER?: string;
    /** Resend's API key (re_…), needed by EMAIL_PROVIDER=resend. */
    RESEND_API_KEY?: string;
    /** Another address for Resend's API; only the tests' local double of it uses this. */
    RESEND_API_URL?: string;
    /** The sender of our email, e.g. "Tickets <tickets@example.com>", on a domain verified with the provider. */
    EMAIL_FROM?: string;
    /** Twilio's account SID (AC…), needed by SMS_PROVIDER=twilio. */
    TWILIO_ACCOUNT_SID?: string;
    /** Twilio's auth token for that account. */
    TWILIO_AUTH_TOKEN?: string;
    /** The number (E.164) or alphanumeric sender id our SMS come from; or set TWILIO_MESSAGING_SERVICE_SID. */
    TWILIO_FROM?: string;
    /** A Twilio Messaging Service (MG…) that picks the sender; used instead of TWILIO_FROM when set. */
    TWILIO_MESSAGING_SERVICE_SID?: string;
    /** Another address for Twilio's API; only the tests' local double of it uses this. */
    TWILIO_API_URL?: string;
    /** Derives entry secrets, signs voucher links and sandbox webhooks (src/lib/services/platform/secrets.ts); required in production. */
    APP_SECRET?: string;
    /** The origin of every absolute link we hand out, e.g. https://tickets.example.com; required in production (src/lib/domain/public-origin.ts). */
    PUBLIC_ORIGIN?: string;
    /** Stripe's secret API key (sk_live_… or sk_test_…); set in a deployed build, payments go to Stripe. */
    STRIPE_SECRET_KEY?: string;
    /** The signing secret of our Stripe webhook endpoint (whsec_…). */
    STRIPE_WEBHOOK_SECRET?: string;
    /** The country of the Stripe account (default HK): it decides which methods Stripe can take. */
    STRIPE_ACCOUNT_COUNTRY?: string;
    /** Another address for Stripe's API; only the tests' local double of it uses this. */
    STRIPE_API_URL?: string;
    /** Cloudflare Turnstile's site key (public): set, new accounts' first codes and waiting-room joins need a solved challenge. */
    TURNSTILE_SITE_KEY?: string;
    /** Turnstile's secret key; required in production (503 without it), unset locally turns the challenge off. */
    TURNSTILE_SECRET_KEY?: string;
    /** Another address for Turnstile's siteverify; only the tests' local double of it uses this. */
    TURNSTILE_API_URL?: string;
    /** Another address for Turnstile's widget script; only the tests' local double of it uses this. */
    TURNSTILE_SCRIPT_URL?: string;
    /** One waiting room per high-demand session (src/lib/durable-objects/waiting-room.ts), named by the session id. */
    WAITING_ROOM: DurableObjectNamespace<import('./lib/durable-objects/waiting-room.ts').WaitingRoom>;
    /** Checkout's orders a minute at which a plain session turns high demand by itself (default: config/on-sale.ts `HIGH_DEMAND_ORDERS_PER_MINUTE`). */
    HIGH_DEMAND_ORDERS_PER_MINUTE?: string;
    /** Another address for the exchange-rates provider (default config/rates.ts FX_RATES_API_URL); only the tests' local double of it uses this. */
    FX_RATES_API_URL?: string;
    /** Local builds only: milliseconds added to every D1 round trip, standing for a far region (`npm run bench`). */
    D1_LATENCY_MS?: string;
  }
}

declare namespace App {
  interface Locals {
    /** The request's execution context, which the Cloudflare adapter puts here; what the worker parsed travels with it (edge/page-request.ts). */
    cfContext: ExecutionContext;
    /**
     * What the edge layer parsed of the request before Astro routed it (the visitor, the reference version
     * the page cache read), and whether the page lets that cache share its answer: the page sets this, never a header.
     */
    edge: import('./lib/edge/page-request.ts').EdgeContext;
    /** The visitor the worker parsed (language, currency, city, hide choices, session cookies), as `edge.visitor`: pages read these, never the cookies. */
    visitor: import('./lib/domain/visitor.ts').Visitor;
    locale: import('./lib/i18n/locales.ts').Locale;
    /** True when the URL carried the locale prefix; else the page adds a canonical link to it. */
    localeFromPrefix: boolean;
    /** The request path without its locale prefix. */
    path: string;
    /** The path the visitor asked for, prefix included, as Astro.originPathname gives it (decoded, with a trailing slash). */
    originPathname: string;
    route: import('./lib/routes.ts').RouteDef;
    /** The signed-in user, checked against the database by the middleware on auth routes; else undefined. */
    user?: import('./lib/services/accounts/sessions.ts').SessionUser;
    /** On an auth route whose page reads the session itself (RouteDef.sessionReadByPage), the cookies' claim instead of `user`. */
    claim?: Pick<import('./lib/services/platform/scope.ts').ClaimedUserScope, 'claimedUserId' | 'session' | 'exact'>;
    /** The request's database session (read replication, data/client.ts), opened by the middleware. */
    db: import('./lib/data/client.ts').Db;
    /** Why the 403 page is shown: a cross-site form (unset) or a console page the caller's staff roles do not cover. */
    refusal?: 'staffOnly';
    /** What the page's services read with, built at most once per request (src/lib/edge/page-scope.ts). */
    scope?: Promise<import('./lib/services/platform/scope.ts').RequestScope>;
  }
}
