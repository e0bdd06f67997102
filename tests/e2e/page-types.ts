/** The page types of scripts/quality/pages.ts as the quality and layout specs visit them. */
import type { Page } from '@playwright/test';
import { e2eStateDir } from '../../scripts/local-db.ts';
import type { PAGE_TYPES } from '../../scripts/quality/pages.ts';
import { pathOf, signedInSession } from '../../scripts/quality/session.ts';

/** One buyer with its orders per worker, for the pages behind sign-in. */
let session: ReturnType<typeof signedInSession> | undefined;

/** The path of a page type in `locale`; for a signed-in page type, the buyer's session cookies go into the page's context first. */
export async function pageTypePath(
  page: Page,
  pageType: (typeof PAGE_TYPES)[number],
  locale: string,
  baseURL: string | undefined,
): Promise<string> {
  if (!pageType.session) return pageType.paths[locale];
  session ??= signedInSession(baseURL!, e2eStateDir(Number(process.env.E2E_PORT) || 8788));
  const { cookies, vars } = await session;
  await page.context().addCookies(cookies.map((cookie) => ({ ...cookie, url: baseURL! })));
  return pathOf(pageType, locale, vars);
}
