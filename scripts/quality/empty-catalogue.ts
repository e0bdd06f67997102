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
import { query, ROOT } from '../local-db.ts';
import { firstOperatorStatements } from '../operator-bootstrap.ts';
import type { Check } from './http-checks.ts';

const OPERATOR_PHONE = { callingCode: '+852', number: '91234567' };
const SESSION_MS = 24 * 3600 * 1000;

/** Makes the first operator of the migrated, unseeded database in `persistTo` and signs them in; returns their Cookie header. */
export async function prepareEmptyCatalogue(persistTo: string): Promise<string> {
  const now = Date.now();
  const token = randomToken();
  const tokenHash = await sha256Hex(token);
  const account = `phone_country_code = '${OPERATOR_PHONE.callingCode}' AND phone = '${OPERATOR_PHONE.number}'`;
  // One wrangler run: the operator, their session, and the session's user.
  const [operator] = query<{ userId: number }>(
    persistTo,
    [
      ...firstOperatorStatements({ phone: OPERATOR_PHONE, now, ...newAccountNames() }),
      `INSERT INTO auth_sessions (user_id, token_hash, expires_at, created_at) SELECT id, '${tokenHash}', ${now + SESSION_MS}, ${now} FROM users WHERE ${account};`,
      `SELECT user_id AS userId FROM auth_sessions WHERE token_hash = '${tokenHash}';`,
    ].join('\n'),
  );
  if (!operator) throw new Error('the first operator was not made');
  return `${TOKEN_COOKIE}=${token}; ${USER_ID_COOKIE}=${operator.userId}`;
}

const page = (name: string, path: string, status: number, bodyHas?: RegExp): Check => ({ name, method: 'GET', path, status, bodyHas });

/** The console's pages built so far (it grows section by section): whether a locale-free path has its page in src/pages. */
function hasPage(route: string): boolean {
  return existsSync(path.join(ROOT, 'src/pages', `${route}.astro`)) || existsSync(path.join(ROOT, 'src/pages', route, 'index.astro'));
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
    page('no lotteries', '/en/overload-ticket/detail', 200, /no lotteries right now/),
    page('empty robots.txt', '/robots.txt', 200, /^Sitemap: /m),
    page('empty sitemap index', '/sitemap.xml', 200, /<sitemapindex/),
    page('empty sitemap', '/sitemaps/zh-HK-1.xml', 200, /<urlset/),
    page('sign-in page', '/en/login', 200),
    ...['/ops/sign-in'].filter(hasPage).map((route) => page('console sign-in', `/en${route}`, 200)),
    page('empty calendar API', '/api/v1/calendar/hongkong-all/latest', 200, /"activities":\[\]/),
    signedIn(page('empty home', '/en/', 200, noEvents)),
    signedIn(page('no orders', '/en/orders', 200, /No orders/)),
    signedIn(page('no coupons', '/en/couponList', 200, /no coupons to use/)),
    signedIn(page('no addresses', '/en/address/list', 200, /no saved addresses/)),
    signedIn(page('no attendees', '/en/customer/list', 200, /no real-name attendees/)),
    signedIn(page('account settings', '/en/account_setting', 200)),
    signedIn(page('no invitations', '/en/invitation', 200)),
    signedIn(page('no listings', '/en/myListings', 200, /no listings yet/)),
    signedIn(page('no gate sessions', '/en/gate', 200)),
    ...CONSOLE_SECTIONS.map((section) => section.path)
      .filter(hasPage)
      .map((route) => signedIn(page('console', `/en${route}`, 200))),
  ];
}
