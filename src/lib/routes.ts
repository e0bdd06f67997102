/**
 * The route table of SPEC.md section 2: path, title name, auth and layout flags. The middleware
 * (auth gate, flags), page titles and links all read it, so a route is described once.
 */
import type { MessageKey } from './i18n/keys.ts';

/** A route's name: every route has a page title `title.{name}` in the catalogues, so the names are those titles'. */
export type RouteName = MessageKey extends infer Key ? (Key extends `title.${infer Name}` ? Name : never) : never;

export interface RouteFlags {
  header: boolean;
  footer: boolean;
  noticeBar: boolean;
  /** Shown only when the language is not English (SPEC.md section 2). */
  customerService: boolean;
}

export interface RouteDef {
  /** The route's name (the spec's, but where it misspells); the page title is `title.{name}` in the catalogues. */
  name: RouteName;
  /** Path pattern: `:param` matches one segment. */
  pattern: string;
  auth: boolean;
  /**
   * An auth route whose page reads the session in its own first D1 batch (services/accounts/signed-in.ts):
   * the middleware takes the cookies' claim without a read of its own, one round trip fewer.
   */
  sessionReadByPage?: true;
  /** The staff console (src/pages/ops): its own sign-in, never cached, never indexed; each page checks the role it needs. */
  console?: true;
  flags: RouteFlags;
}

const page: RouteFlags = { header: true, footer: true, noticeBar: false, customerService: true };
const bare: RouteFlags = { header: false, footer: false, noticeBar: false, customerService: false };
const flow: RouteFlags = { header: false, footer: false, noticeBar: false, customerService: true };

export const ROUTES: readonly RouteDef[] = [
  { name: 'homePage', pattern: '/', auth: false, flags: { ...page, noticeBar: true } },
  { name: 'loginPage', pattern: '/login', auth: false, flags: bare },
  { name: 'detailPage', pattern: '/activity/:id', auth: false, flags: { ...page, footer: false } },
  { name: 'addressListPage', pattern: '/address/list', auth: true, flags: flow },
  { name: 'addressCreatePage', pattern: '/address/create', auth: true, flags: flow },
  { name: 'addressListPage', pattern: '/address_list', auth: true, flags: flow },
  { name: 'accountSettingPage', pattern: '/account_setting', auth: true, flags: flow },
  { name: 'aboutPage', pattern: '/about', auth: false, flags: page },
  { name: 'contactPage', pattern: '/contact', auth: false, flags: page },
  { name: 'privacyPage', pattern: '/privacy', auth: false, flags: page },
  { name: 'userAgreement', pattern: '/userAgreement', auth: false, flags: page },
  { name: 'transferAgreement', pattern: '/transferAgreement', auth: false, flags: page },
  { name: 'orderListPage', pattern: '/orders', auth: true, flags: flow },
  { name: 'orderDetailPage', pattern: '/orders/:id', auth: true, flags: flow },
  /** Not in the spec's table: the ticket-transfer listing service's pages (SPEC.md section 1). */
  { name: 'orderTransferPage', pattern: '/orders/:id/sell', auth: true, flags: flow },
  { name: 'myListingsPage', pattern: '/myListings', auth: true, flags: flow },
  /** Not in the spec's table: the door staff's check-in, where the voucher's entry code is scanned. */
  { name: 'gatePage', pattern: '/gate', auth: true, flags: flow },
  { name: 'orderConfirmPage', pattern: '/order/confirm', auth: true, sessionReadByPage: true, flags: flow },
  /** Not in the spec's table: a high-demand session's line before checkout. */
  { name: 'waitingRoomPage', pattern: '/waiting-room/:id', auth: true, sessionReadByPage: true, flags: flow },
  { name: 'orderPayPage', pattern: '/order/:id/pay', auth: true, flags: flow },
  { name: 'orderPaySuccessPage', pattern: '/paySuccess', auth: true, flags: flow },
  { name: 'orderPayCancelPage', pattern: '/payCancel', auth: true, flags: flow },
  { name: 'orderPayFailPage', pattern: '/payFail', auth: true, flags: flow },
  /** The spec's `customerListage`, named for what it lists. */
  { name: 'attendeeListPage', pattern: '/customer/list', auth: true, flags: flow },
  { name: 'customerCreatePage', pattern: '/customer/create', auth: true, flags: flow },
  { name: 'OverloadTicketDetail', pattern: '/overload-ticket/detail', auth: false, flags: flow },
  { name: 'OverloadTicketDetail', pattern: '/overload-ticket/:id/share', auth: false, flags: flow },
  { name: 'voucherPage', pattern: '/voucher', auth: false, flags: flow },
  /** The spec's `notFundPage`, spelled right. */
  { name: 'notFoundPage', pattern: '/404', auth: false, flags: page },
  /** Shown, with status 403, instead of a page a cross-site form posted to (src/middleware.ts). */
  { name: 'forbiddenPage', pattern: '/403', auth: false, flags: page },
  { name: 'couponListPage', pattern: '/couponList', auth: true, flags: flow },
  { name: 'myInvitationCode', pattern: '/invitation', auth: true, flags: flow },
  /** The staff console's sign-in: a passkey, or the phone code as the way back in. */
  { name: 'opsSignInPage', pattern: '/ops/sign-in', auth: false, console: true, flags: bare },
  /** Where an invited staff member accepts the invitation and adds their passkey. */
  { name: 'opsJoinPage', pattern: '/ops/join/:token', auth: false, console: true, flags: bare },
  { name: 'opsPage', pattern: '/ops', auth: true, console: true, flags: bare },
  // The pages of a local build only (src/local-pages, integrations/local-build.ts); a production build routes their paths to the listing's 404.
  /** The built-in sandbox payment provider's hosted page: its own screen, reached by its unguessable reference. */
  { name: 'sandboxPayPage', pattern: '/sandbox/pay/:ref', auth: false, flags: bare },
  /** The messages the dev outbox kept instead of sending (DESIGN.md, Messages). */
  { name: 'devMailPage', pattern: '/dev/mail', auth: false, flags: bare },
];

/** Any other path: a category list, or the search page when it contains `/s_` (SPEC.md section 2). */
const CATEGORY_ROUTE: RouteDef = { name: 'categoryPage', pattern: '/*', auth: false, flags: page };
const SEARCH_ROUTE: RouteDef = { name: 'activityListPage', pattern: '/*', auth: false, flags: page };
/** Every other console page: behind sign-in; the page's loader checks the staff role it needs. */
const CONSOLE_ROUTE: RouteDef = { name: 'opsPage', pattern: '/ops/*', auth: true, console: true, flags: bare };

function matches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return false;
  return want.every((segment, i) => (segment.startsWith(':') ? got[i] !== '' : segment === got[i]));
}

/** The route a locale-free path belongs to; unknown paths fall to the catch-all listing routes. */
export function routeFor(path: string): RouteDef {
  const normalized = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
  const known = ROUTES.find((route) => matches(route.pattern, normalized));
  if (known) return known;
  if (normalized.startsWith('/ops/')) return CONSOLE_ROUTE;
  return normalized.includes('/s_') ? SEARCH_ROUTE : CATEGORY_ROUTE;
}

/** Fills a pattern's parameters: pathTo('orderDetailPage', { id: 7 }) is '/orders/7'. */
export function pathTo(name: RouteName, params: Record<string, string | number> = {}): string {
  const route = ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`Unknown route ${name}`);
  return route.pattern.replace(/:(\w+)/g, (_, key: string) => encodeURIComponent(String(params[key])));
}
