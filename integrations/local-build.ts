/**
 * The build-time switch between a local build and a production one. The local-only code (the dev
 * routes, the API document, the sandbox payment provider with its hosted page and webhook, the dev
 * outbox and its mail viewer, the captcha's answer header, the round-trip count) is compiled in only
 * when LOCAL_BUILD=1: the source branches on the constant LOCAL_BUILD, which Vite replaces at build time,
 * so a production bundle has none of that code and no spelling of a path can reach it; the local-only
 * pages are routes only in a local build. `astro build` alone is the production build (what a deployer
 * runs); npm start, the e2e server, the bench and the simulation build the local one (scripts/local-db.ts).
 */
import type { AstroIntegration } from 'astro';

/** The environment variable that asks for a local build. */
export const LOCAL_BUILD_VARIABLE = 'LOCAL_BUILD';

/** Whether this environment asks for a local build. */
export const wantsLocalBuild = (env = process.env) => env[LOCAL_BUILD_VARIABLE] === '1';

/** Vite's `define` that sets the constant LOCAL_BUILD (declared in src/env.d.ts): also the vitest config's. */
export const localBuildDefine = (local: boolean) => ({ LOCAL_BUILD: JSON.stringify(local) });

/** The pages of a local build only: outside src/pages, so no other build routes to them. */
const LOCAL_PAGES = [
  { pattern: '/dev/mail', entrypoint: new URL('../src/local-pages/dev/mail.astro', import.meta.url) },
  { pattern: '/sandbox/pay/[ref]', entrypoint: new URL('../src/local-pages/sandbox/pay/[ref].astro', import.meta.url) },
];

/** The Astro integration that makes the build local or production. */
export function localBuild(local = wantsLocalBuild()): AstroIntegration {
  return {
    name: 'local-build',
    hooks: {
      'astro:config:setup': ({ command, updateConfig, injectRoute, logger }) => {
        updateConfig({ vite: { define: localBuildDefine(local) } });
        if (local) for (const page of LOCAL_PAGES) injectRoute(page);
        if (command === 'build') logger.info(local ? 'a local build: with the dev routes, sandbox and API document' : 'a production build');
      },
    },
  };
}
