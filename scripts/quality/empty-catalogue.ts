/**
 * The production check's second database: migrated (the reference data with it) and not seeded, as a
 * deployment starts. Its operator is made by `npm run first-operator`'s statements and given a session,
 * and every page renders: the storefront with its empty states, an operator's account pages and the
 * console's sections, 404 for what is not there; never a 500 for want of the demo catalogue.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { TOKEN_COOKIE, USER_ID_COOKIE } from '../../src/lib/config/request.ts';
import { CONSOLE_SECTIONS } from '../../src/lib/console-sections.ts';
import { newAccountNames } from '../../src/lib/domain/invitations.ts';
import { randomToken, sha256Hex } from '../../src/lib/domain/password.ts';
import { migrate, query, ROOT } from '../local-db.ts';
import { firstOperatorStatements } from '../operator-bootstrap.ts';
import type { Check } from './http-checks.ts';

const OPERATOR_PHONE = { callingCode: '+852', number: '91234567' };
const SESSION_MS = 24 * 3600 * 1000;

/** Migrates a fresh database in `persistTo` without seeding it, makes its first operator and signs them in; returns their Cookie header. */
export async function prepareEmptyCatalogue(persistTo: string): Promise<string> {
  migrate(persistTo);
  const now = Date.now();
  const statements = firstOperatorStatements({ phone: OPERATOR_PHONE, now, ...newAccountNames() });
  const [operator] = query<{ userId: number }>(persistTo, statements.join('\n'));
  if (!operator) throw new Error('the first operator was not made');
  const token = randomToken();
  query(
    persistTo,
    `INSERT INTO auth_sessions (user_id, token_hash, expires_at, created_at) VALUES (${operator.userId}, '${await sha256Hex(token)}', ${now + SESSION_MS}, ${now})`,
  );
  return `${TOKEN_COOKIE}=${token}; ${USER_ID_COOKIE}=${operator.userId}`;
}

const page = (name: string, path: string, status: number, bodyHas?: RegExp): Check => ({ name, method: 'GET', path, status, bodyHas });

/** The console's sections that have a page yet: each must render for an operator. */
function consolePages(): string[] {
  return CONSOLE_SECTIONS.map((section) => section.path).filter(
    (section) =>
      existsSync(path.join(ROOT, 'src/pages', `${section}.astro`)) || existsSync(path.join(ROOT, 'src/pages', section, 'index.astro')),
  );
}

/** The requests of the empty database; `cookie` signs in its operator. */
export function emptyCatalogueChecks(cookie: string): Check[] {
  const signedIn = (check: Check): Check => ({ ...check, name: `${check.name}, operator`, requestHeaders: { cookie } });
  const noEvents = /No events/;
  return [
    page('empty home', '/en/', 200, noEvents),
    page('empty home', '/zh-HK/', 200),
    page('empty home', '/zh-CN/', 200),
    page('empty category', '/en/concerts', 200, noEvents),
    page('empty listing, all cities', '/en/all?city=all&sort=price', 200, noEvents),
    page('empty search', '/en/s_jay', 200, /No events match/),
    page('empty search', '/zh-HK/s_%E6%BC%94%E5%94%B1%E6%9C%83', 200),
    page('no activity', '/en/activity/1000', 404),
    page('no lottery', '/en/overload-ticket/detail?id=1', 404),
    page('empty robots.txt', '/robots.txt', 200, /^Sitemap: /m),
    page('empty sitemap index', '/sitemap.xml', 200, /<sitemapindex/),
    page('empty sitemap', '/sitemaps/zh-HK-1.xml', 200, /<urlset/),
    page('sign-in page', '/en/login', 200),
    page('console sign-in', '/en/ops/sign-in', 200),
    page('empty calendar API', '/api/v1/calendar/hongkong-all/latest', 200, /"activities":\[\]/),
    signedIn(page('empty home', '/en/', 200, noEvents)),
    signedIn(page('no orders', '/en/orders', 200, /No orders/)),
    signedIn(page('no coupons', '/en/couponList', 200, /no coupons to use/)),
    signedIn(page('no addresses', '/en/address/list', 200, /no saved addresses/)),
    signedIn(page('no attendees', '/en/customer/list', 200, /no real-name attendees/)),
    signedIn(page('account settings', '/en/account_setting', 200)),
    signedIn(page('no invitations', '/en/invitation', 200)),
    ...consolePages().map((section) => signedIn(page('console', `/en${section}`, 200))),
  ];
}
