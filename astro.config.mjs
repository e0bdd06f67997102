import { createHash } from 'node:crypto';
import { defineConfig } from 'astro/config';
import cloudflare from '@astrojs/cloudflare';
import react from '@astrojs/react';
import { INLINE_SCRIPTS } from './src/lib/inline-scripts.ts';

/** The hash the Content-Security-Policy names an inline script by: of its exact text. */
const scriptHash = (code) => `sha256-${createHash('sha256').update(code).digest('base64')}`;

export default defineConfig({
  output: 'server',
  adapter: cloudflare({ imageService: 'passthrough' }),
  integrations: [react()],
  session: false,
  i18n: {
    locales: ['en', 'zh-HK', 'zh-TW', 'zh-CN'],
    defaultLocale: 'en',
    // Our middleware resolves the language (prefix, cookie, Accept-Language) and strips the prefix.
    routing: 'manual',
  },
  security: {
    // Every page's CSP header: Astro adds the hashes of its own scripts and styles; ours are listed here.
    csp: {
      directives: [
        "default-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
      ],
      scriptDirective: { hashes: Object.values(INLINE_SCRIPTS).map(scriptHash) },
      // React islands and a few components set style attributes; they cannot run code.
      styleDirective: { resources: ["'self'", { resource: "'unsafe-inline'", kind: 'attribute' }] },
    },
  },
});
