import astro from '@astrojs/cloudflare/entrypoints/server';

export default {
  fetch: astro.fetch,
};
