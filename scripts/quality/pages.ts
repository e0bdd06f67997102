/**
 * The public page types every quality gate checks (Lighthouse, axe, JavaScript budget): one list,
 * so a new page type is added once. Each has a path per locale (English and one Chinese locale),
 * the status the server must answer, and a JavaScript budget class.
 */

/** First-load JavaScript budgets, in KB (1 KB = 1000 bytes) of gzip (DESIGN.md, Budgets). */
export const JS_BUDGET_KB = { browse: 90, checkout: 150 };

/** Lighthouse category scores (0-100) every page must reach. */
export const LIGHTHOUSE_BUDGETS = { performance: 95, accessibility: 95, 'best-practices': 95, seo: 90 };

/**
 * A low-end phone: Lighthouse's mobile profile with the CPU slowed to the speed of DevTools' low-tier
 * phone (Lighthouse benchmark index 264, a Moto G4 Power 2022) instead of 4x. A slowdown is a ratio
 * to the machine that measures, so it follows that machine's benchmark index: host index / 264, at
 * most 8x (the low-tier phone on a host of index 2112, as the issue measured it) and never less than
 * the default profile's 4x. Every public page (the `browse` budget class: anyone may open it without
 * an account) must reach these scores on it; the CPU changes no category but performance, so only
 * that is measured.
 */
export const LOW_END_PHONE = { deviceBenchmarkIndex: 264, maxCpuSlowdownMultiplier: 8, budgets: { performance: 90 } };

/**
 * On the low-end phone, the home page's Largest Contentful Paint may take at most this multiple of
 * that of a script-free copy of its own HTML measured in the same run: what its JavaScript may cost.
 */
export const MAX_LCP_RATIO_TO_SCRIPT_FREE = 1.15;

/** The locales the gates visit: English and one Chinese locale. */
export const QUALITY_LOCALES = ['en', 'zh-HK'];

export interface PageType {
  /** Short id used in reports. */
  name: string;
  /** URL path per locale in QUALITY_LOCALES. */
  paths: Record<string, string>;
  /** The HTTP status the page answers with. */
  status: number;
  /** Its JS budget class (JS_BUDGET_KB). */
  budget: keyof typeof JS_BUDGET_KB;
  /**
   * Visited signed in, as the buyer of scripts/quality/session.ts, whose orders fill the path's `{placeholders}` (the
   * voucher is public, but its link needs a ticketed order).
   */
  session?: boolean;
  /** Kept out of search engines on purpose, so Lighthouse's SEO score is reported but not held to its budget. */
  noindex?: boolean;
}

/**
 * Paths must exist in the seeded demo database (activity ids start at 1000). Pages the budget does
 * not name (login, info, 404, 403) are held to the stricter `browse` budget.
 */
export const PAGE_TYPES: PageType[] = [
  { name: 'home', paths: { en: '/en/', 'zh-HK': '/zh-HK/' }, status: 200, budget: 'browse' },
  { name: 'category', paths: { en: '/en/concerts', 'zh-HK': '/zh-HK/concerts' }, status: 200, budget: 'browse' },
  { name: 'search', paths: { en: '/en/s_hong', 'zh-HK': '/zh-HK/s_hong' }, status: 200, budget: 'browse' },
  { name: 'contact', paths: { en: '/en/contact', 'zh-HK': '/zh-HK/contact' }, status: 200, budget: 'browse' },
  { name: 'privacy', paths: { en: '/en/privacy', 'zh-HK': '/zh-HK/privacy' }, status: 200, budget: 'browse' },
  { name: 'user-agreement', paths: { en: '/en/userAgreement', 'zh-HK': '/zh-HK/userAgreement' }, status: 200, budget: 'browse' },
  {
    name: 'transfer-agreement',
    paths: { en: '/en/transferAgreement', 'zh-HK': '/zh-HK/transferAgreement' },
    status: 200,
    budget: 'browse',
  },
  { name: 'app-info', paths: { en: '/appInfo.html?language=en', 'zh-HK': '/appInfo.html?language=zh-HK' }, status: 200, budget: 'browse' },
  { name: 'activity', paths: { en: '/en/activity/1000', 'zh-HK': '/zh-HK/activity/1000' }, status: 200, budget: 'browse' },
  { name: 'login', paths: { en: '/en/login', 'zh-HK': '/zh-HK/login' }, status: 200, budget: 'browse' },
  { name: 'info', paths: { en: '/en/about', 'zh-HK': '/zh-HK/about' }, status: 200, budget: 'browse' },
  {
    name: 'lottery-list',
    paths: { en: '/en/overload-ticket/detail', 'zh-HK': '/zh-HK/overload-ticket/detail' },
    status: 200,
    budget: 'browse',
  },
  {
    name: 'lottery',
    paths: { en: '/en/overload-ticket/detail?id=1', 'zh-HK': '/zh-HK/overload-ticket/detail?id=1' },
    status: 200,
    budget: 'browse',
  },
  { name: 'lottery-share', paths: { en: '/en{sharePath}', 'zh-HK': '/zh-HK{sharePath}' }, status: 200, budget: 'browse', session: true },
  { name: 'not-found', paths: { en: '/en/no/such/page', 'zh-HK': '/zh-HK/no/such/page' }, status: 404, budget: 'browse' },
  { name: 'forbidden', paths: { en: '/en/403', 'zh-HK': '/zh-HK/403' }, status: 403, budget: 'browse' },
  {
    name: 'address-list',
    paths: { en: '/en/address/list', 'zh-HK': '/zh-HK/address/list' },
    status: 200,
    budget: 'checkout',
    session: true,
  },
  {
    name: 'attendee-list',
    paths: { en: '/en/customer/list', 'zh-HK': '/zh-HK/customer/list' },
    status: 200,
    budget: 'checkout',
    session: true,
  },
  {
    name: 'confirm',
    paths: { en: '/en/order/confirm?listingId={listingId}&quantity=1', 'zh-HK': '/zh-HK/order/confirm?listingId={listingId}&quantity=1' },
    status: 200,
    budget: 'checkout',
    session: true,
  },
  {
    name: 'waiting-room',
    paths: { en: '/en/waiting-room/{waitingRoomSessionId}', 'zh-HK': '/zh-HK/waiting-room/{waitingRoomSessionId}' },
    status: 200,
    budget: 'checkout',
    session: true,
  },
  { name: 'orders', paths: { en: '/en/orders', 'zh-HK': '/zh-HK/orders' }, status: 200, budget: 'checkout', session: true },
  {
    name: 'transfer-sell',
    paths: { en: '/en/orders/{ticketedOrderId}/sell', 'zh-HK': '/zh-HK/orders/{ticketedOrderId}/sell' },
    status: 200,
    budget: 'checkout',
    session: true,
  },
  { name: 'my-listings', paths: { en: '/en/myListings', 'zh-HK': '/zh-HK/myListings' }, status: 200, budget: 'checkout', session: true },
  {
    name: 'order-detail',
    paths: { en: '/en/orders/{ticketedOrderId}', 'zh-HK': '/zh-HK/orders/{ticketedOrderId}' },
    status: 200,
    budget: 'checkout',
    session: true,
  },
  {
    name: 'pay-success',
    paths: { en: '/en/paySuccess?orderId={ticketedOrderId}', 'zh-HK': '/zh-HK/paySuccess?orderId={ticketedOrderId}' },
    status: 200,
    budget: 'checkout',
    session: true,
  },
  {
    name: 'voucher',
    paths: { en: '/en{voucherPath}', 'zh-HK': '/zh-HK{voucherPath}' },
    status: 200,
    budget: 'browse',
    session: true,
    noindex: true,
  },
  { name: 'coupons', paths: { en: '/en/couponList', 'zh-HK': '/zh-HK/couponList' }, status: 200, budget: 'checkout', session: true },
  { name: 'invitation', paths: { en: '/en/invitation', 'zh-HK': '/zh-HK/invitation' }, status: 200, budget: 'checkout', session: true },
  {
    name: 'pay',
    paths: { en: '/en/order/{orderId}/pay', 'zh-HK': '/zh-HK/order/{orderId}/pay' },
    status: 200,
    budget: 'checkout',
    session: true,
  },
];
