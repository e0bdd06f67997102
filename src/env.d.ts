/// <reference types="astro/client" />

declare namespace Cloudflare {
  interface Env {
    DB: D1Database;
    /** 'local' exposes the dev outbox and relaxes Secure cookies; 'production' never does. */
    APP_ENV: 'local' | 'production';
  }
}

declare namespace App {
  interface Locals {
    locale: import('./lib/i18n/locales.ts').Locale;
    /** True when the URL carried the locale prefix; else the page adds a canonical link to it. */
    localeFromPrefix: boolean;
    /** The request path without its locale prefix. */
    path: string;
    route: import('./lib/routes.ts').RouteDef;
  }
}
