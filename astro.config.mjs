import { defineConfig } from 'astro/config';
import cloudflare from '@astrojs/cloudflare';
import react from '@astrojs/react';

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
});
