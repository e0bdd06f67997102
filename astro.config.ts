import { createHash } from 'node:crypto';
import { defineConfig } from 'astro/config';
import cloudflare from '@astrojs/cloudflare';
import react from '@astrojs/react';
import { INLINE_SCRIPTS } from './src/lib/inline-scripts.ts';
import { localBuild } from './integrations/local-build.ts';
import { posterImages } from './integrations/poster-images.ts';
import { shareCardFonts } from './integrations/share-card-fonts.ts';

/** The hash the Content-Security-Policy names an inline script by: of its exact text. */
const scriptHash = (code: string): `sha256-${string}` => `sha256-${createHash('sha256').update(code).digest('base64')}`;

export default defineConfig({
  output: 'server',
  // Posters are paths read from the database, which the adapter's Cloudflare image service passes through
  // unchanged (it transforms imported or allow-listed remote images): src/lib/domain/poster-images.ts names
  // their variants, from Cloudflare's image transformations deployed and from integrations/poster-images.ts locally.
  adapter: cloudflare({ imageService: 'passthrough' }),
  // LOCAL_BUILD=1 makes a local build (integrations/local-build.ts); without it, the production build.
  integrations: [react(), posterImages(), shareCardFonts(), localBuild()],
  session: false,
  i18n: {
    locales: ['en', 'zh-HK', 'zh-TW', 'zh-CN'],
    defaultLocale: 'en',
    // Our middleware resolves the language (prefix, cookie, Accept-Language) and strips the prefix.
    routing: 'manual',
  },
  security: {
    // src/middleware.ts makes the cross-site check itself (the API's rule) and answers with the localized
    // 403 page; Astro's own check would answer first, in plain English text.
    checkOrigin: false,
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
