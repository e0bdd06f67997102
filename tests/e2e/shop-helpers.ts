/**
 * What the shop's end-to-end specs share: the page's words read from the catalogues, finding
 * something to buy through the API, placing, paying and fulfilling orders, and the quality checks
 * (axe, first-load JavaScript, hydration, named controls). Signing in is in auth-helpers.ts.
 *
 * Specs that buy scan different ranges of the seeded activities (1000-1373), so the tickets they
 * hold while running side by side rarely come from the same listing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import type { AxeResults, RunOptions } from 'axe-core';
import { expect, type APIRequestContext, type Page, type Response } from '@playwright/test';
import { fulfilAsSeller } from '../../scripts/demo-fulfil.ts';
import { JS_BUDGET_KB } from '../../scripts/quality/pages.ts';
import type { PaymentMethod } from '../../src/lib/domain/payment-methods.ts';
import { DEMO_SELLER_PASSWORD } from '../../src/lib/db/seed.ts';
import { fixture } from './fixtures.ts';
import type { MessageKey } from '../../src/lib/i18n/keys.ts';
import { format, pluralKey } from '../../src/lib/i18n/messages.ts';
import type { ActivityDetail } from '../../src/lib/services/catalogue/activity-detail.ts';
import type { TicketGroupInfo, TicketOffer } from '../../src/lib/services/catalogue/ticket-offers.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';

const port = Number(process.env.E2E_PORT) || 8788;
/** The e2e server (playwright.config.ts), for calls made outside a browser context. */
export const BASE_URL = `http://127.0.0.1:${port}`;

// ---------------------------------------------------------------------------------------------
// The page's words

export type PagePrefix = 'en' | 'zh-HK' | 'zh-TW' | 'zh-CN';

/** A page language: its URL prefix (also the `language` header of the API), and its catalogue's texts. */
export interface Locale {
  prefix: PagePrefix;
  language: string;
  /** The catalogue text of `key` with its `{{params}}` filled; a missing key fails the test. */
  say: (key: MessageKey, params?: Record<string, string | number>) => string;
}

const CATALOGUE_OF: Record<PagePrefix, string> = { en: 'en', 'zh-HK': 'zh-Hant', 'zh-TW': 'zh-Hant', 'zh-CN': 'zh-Hans' };

/** Every key of a catalogue folder (src/lib/i18n/locales/<name>), merged as the app merges them. */
function loadCatalogue(name: string): Record<string, string> {
  const folder = new URL(`../../src/lib/i18n/locales/${name}/`, import.meta.url);
  return Object.assign({}, ...readdirSync(folder).map((file) => JSON.parse(readFileSync(new URL(file, folder), 'utf8'))));
}

/** The words of the pages under a URL prefix, read from the catalogues they render from. */
export function localeOf(prefix: PagePrefix): Locale {
  const messages = loadCatalogue(CATALOGUE_OF[prefix]);
  return {
    prefix,
    language: prefix,
    say: (key, params = {}) => {
      expect(messages[pluralKey(messages, key, params.count)], `catalogue key ${key}`).toBeDefined();
      return format(messages, key, params);
    },
  };
}

/** `text` as a regular expression that matches it literally. */
export const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---------------------------------------------------------------------------------------------
// Finding something to buy

/** The seeded activity ids from `from` to `to`, either way round. */
export function activityIds(from: number, to: number): number[] {
  const step = from <= to ? 1 : -1;
  return Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => from + i * step);
}

/** An activity's detail through the API, or null when there is none with that id. */
export async function detailOf(request: APIRequestContext, id: number, language = 'en'): Promise<ActivityDetail | null> {
  const response = await request.get(`/api/activity/${id}`, { headers: { language } });
  return response.ok() ? ((await response.json()).data as ActivityDetail) : null;
}

/** The direct-buy offer of a tier: its seller listings, priced in the currency `headers` ask for. */
export async function offerOf(
  request: APIRequestContext,
  eventId: number,
  tierId: number,
  headers: Record<string, string> = {},
): Promise<TicketOffer> {
  const response = await request.post('/api/v8/tickets', { data: { b2c: true, eventId, ticketCategoryId: tierId, buyType: 1 }, headers });
  const offer = ((await response.json()).data as TicketOffer[]).find((candidate) => candidate.type === 'DIRECT_BUY');
  expect(offer, `a direct-buy offer of tier ${tierId}`).toBeDefined();
  return offer!;
}

/** A listing to order from: bought `quantity` tickets at a time, on a tier of an activity. */
export interface Listing {
  id: number;
  quantity: number;
  activityId: number;
  tierId: number;
}

export interface ListingSearch {
  /** The activities to look in, in order (activityIds). */
  ids: number[];
  /** Tickets that must be left beyond one order, so the holds of tests running meanwhile never empty the listing. */
  spare: number;
  /** Tickets per order; by default each listing's smallest order. */
  quantity?: number;
  /** How many listings, at most one per activity. */
  count?: number;
}

/**
 * On-sale listings without real-name entry that deliver e-tickets. Read afresh on each call:
 * the holds of earlier tests change what is left.
 */
export async function eTicketListings(request: APIRequestContext, { ids, spare, quantity, count = 1 }: ListingSearch): Promise<Listing[]> {
  const found: Listing[] = [];
  for (const activityId of ids) {
    if (found.length === count) break;
    const activity = await detailOf(request, activityId);
    if (activity?.saleState !== 'onSale' || activity.realNameRequired) continue;
    for (const tier of activity.sessions.flatMap((session) => session.tiers).filter((t) => t.hasTicket)) {
      const { ticketGroupInfoList } = await offerOf(request, activityId, tier.id);
      const fitting = ticketGroupInfoList.filter((g) => {
        const wanted = quantity ?? g.minQuantity;
        return g.deliveryTypes.includes('e_ticket') && g.minQuantity <= wanted && wanted <= g.maxQuantity && g.available >= wanted + spare;
      });
      const [group] = fitting;
      if (group) {
        found.push({ id: group.ticketGroup.id, quantity: quantity ?? group.minQuantity, activityId, tierId: tier.id });
        break;
      }
    }
  }
  expect(found.length, `seeded listings delivering e-tickets with ${spare} tickets to spare`).toBe(count);
  return found;
}

/** Tickets a listing has left, as the detail page's picker reads them. */
export async function availableOf(request: APIRequestContext, listing: Listing): Promise<number> {
  const { ticketGroupInfoList } = await offerOf(request, listing.activityId, listing.tierId);
  const group = ticketGroupInfoList.find((g) => g.ticketGroup.id === listing.id);
  expect(group, `listing ${listing.id} in its offer`).toBeDefined();
  return group!.available;
}

/** A listing the detail page's picker shows first, and what buying it takes. */
export interface Pick {
  activity: ActivityDetail;
  listing: TicketGroupInfo;
  quantity: number;
}

/** Tickets a picked listing must have left beyond one order. */
const PICK_SPARE_TICKETS = 6;

/**
 * The first on-sale activity of `ids` passing `wanted` whose preselected tier (the detail page's
 * first session and tier with tickets) has a listing passing `wantedListing`, with a price no other
 * listing of the tier shows, so its radio can be told apart on the detail page.
 */
export async function findListing(
  request: APIRequestContext,
  ids: number[],
  language: string,
  wanted: (activity: ActivityDetail) => boolean,
  wantedListing: (listing: TicketGroupInfo) => boolean,
): Promise<Pick> {
  for (const id of ids) {
    const activity = await detailOf(request, id, language);
    if (!activity?.bookable || !wanted(activity)) continue;
    const tier = activity.sessions.find((session) => session.hasTicket)?.tiers.find((t) => t.hasTicket);
    if (!tier) continue;
    const { ticketGroupInfoList: listings } = await offerOf(request, activity.id, tier.id, { language, currency: 'HKD' });
    const fitting = listings.filter(
      (candidate) =>
        wantedListing(candidate) &&
        candidate.available >= candidate.minQuantity + PICK_SPARE_TICKETS &&
        listings.filter((other) => other.salePriceView === candidate.salePriceView).length === 1,
    );
    const [listing] = fitting;
    if (listing) return { activity, listing, quantity: listing.minQuantity };
  }
  throw new Error('No seeded activity fits this test');
}

/** On the activity's detail page in the locale: picks the listing by its price and the quantity, then Buy. */
export async function buyOnDetailPage(page: Page, l: Locale, pick: Pick): Promise<void> {
  await page.goto(`/${l.prefix}/activity/${pick.activity.id}`);
  await hydratedInView(page, 'TicketPicker');
  await page
    .getByRole('radio', { name: new RegExp(`^${escapeRegExp(l.say('detail.picker.each', { price: pick.listing.salePriceView }))}`) })
    .check();
  await page.getByRole('combobox', { name: l.say('detail.picker.quantity') }).selectOption(String(pick.quantity));
  await page.getByRole('button', { name: l.say('detail.picker.buy') }).click();
}

// ---------------------------------------------------------------------------------------------
// Orders

let orderKeys = 0;

/**
 * Places an e-ticket order through the API as the signed-in buyer of `request`, at the quoted
 * total, paying by `paymentMethod` (by default the first the quote offers). Amounts come back in English.
 */
export async function placeOrder(request: APIRequestContext, listing: Listing, paymentMethod?: PaymentMethod): Promise<OrderDetail> {
  const quoted = await request.get('/api/v1/checkout/quote', {
    params: { listingId: listing.id, quantity: listing.quantity, deliveryType: 'e_ticket', coupon: 'none' },
    headers: { language: 'en' },
  });
  expect(quoted.status(), await quoted.text()).toBe(200);
  const quote = (await quoted.json()).data as CheckoutQuote;
  orderKeys += 1;
  const created = await request.post('/api/v1/orders', {
    headers: { 'Idempotency-Key': `e2e-order-${Date.now()}-${orderKeys}`, language: 'en' },
    data: {
      listingId: listing.id,
      quantity: listing.quantity,
      deliveryType: 'e_ticket',
      paymentMethod: paymentMethod ?? quote.paymentMethods[0],
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quote.cost.total,
    },
  });
  expect(created.status(), await created.text()).toBe(200);
  return (await created.json()).data as OrderDetail;
}

/** An order of the signed-in buyer through the API, its amounts and names in `language`. */
export async function orderOf(request: APIRequestContext, id: number, language = 'en'): Promise<OrderDetail> {
  const response = await request.get(`/api/v1/orders/${id}`, { headers: { language } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).data as OrderDetail;
}

/**
 * On the order confirmation page: e-ticket, a card, the buyer notes, Submit; answers the order the
 * payment page it leads to is for, its names in the page's language.
 */
export async function confirmETicketByCard(page: Page, l: Locale): Promise<OrderDetail> {
  await hydratedInView(page, 'ConfirmOrder');
  await page.getByRole('radio', { name: l.say('detail.delivery.e_ticket'), exact: true }).check();
  await page.getByRole('radio', { name: l.say('payment.visa'), exact: true }).check();
  await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();
  await page.getByRole('button', { name: l.say('confirm.submit') }).click();
  await page.waitForURL(new RegExp(`/${l.prefix}/order/\\d+/pay$`));
  return orderOf(page.request, Number(new URL(page.url()).pathname.split('/').at(-2)), l.language);
}

/** Starts the order's payment through the API and approves it on the sandbox's hosted page, in `page`. */
export async function payInSandbox(page: Page, order: OrderDetail): Promise<void> {
  const started = await page.request.post(`/api/v1/orders/${order.id}/payments`, {
    headers: { 'Idempotency-Key': `e2e-pay-${order.id}` },
    data: { method: order.paymentMethod },
  });
  expect(started.status(), await started.text()).toBe(200);
  await page.goto((await started.json()).data.checkoutUrl);
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await page.waitForURL(/\/paySuccess\?/);
}

/** A POST without a body, as a browser sends it, naming its origin. */
export function postWithoutBody(request: APIRequestContext, url: string) {
  return request.post(url, { headers: { origin: BASE_URL } });
}

/** Signs `request` (a browser context's) in as the seller of an order, with the demo sellers' password. */
export async function signInAsOrderSeller(request: APIRequestContext, orderNo: string): Promise<void> {
  expect(orderNo, 'an order number: digits only').toMatch(/^\d+$/);
  const order = await fixture('order', { orderNo });
  const signedIn = await request.post('/api/v1/user/mail/login', {
    data: { email: order!.sellerEmail, loginType: 'password', password: DEMO_SELLER_PASSWORD },
  });
  expect(signedIn.status(), await signedIn.text()).toBe(200);
}

/** Issues a paid order's e-tickets as its seller, through the code path of `npm run demo:fulfil`. */
export async function fulfilAsOrderSeller(orderNo: string): Promise<{ status: string; tickets: { ticketNo: string }[] }> {
  return fulfilAsSeller({ baseUrl: BASE_URL, orderNo });
}

// ---------------------------------------------------------------------------------------------
// Quality

/** First-load JavaScript budget of checkout pages, KB gzip (scripts/quality/pages.ts). */
export const CHECKOUT_JS_BUDGET_KB = JS_BUDGET_KB.checkout;

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Serious or critical axe violations on the page as it is now, each with its rule, help and targets.
 * axe runs in the page itself, reporting violations only: our pages have no frames, and
 * @axe-core/playwright's frame-merging run opened a second page per check (3-4 s against 0.5 s on a
 * quiet 2-core machine), enough to reach the test timeout on a busy one.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const options: RunOptions = { resultTypes: ['violations'] };
  const violations = await page.evaluate(async (runOptions) => {
    const { violations: found } = await (
      window as unknown as { axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> } }
    ).axe.run(document, runOptions);
    return found.map(({ id, impact, help, nodes }) => ({ id, impact, help, targets: nodes.map((node) => node.target.join(' ')) }));
  }, options);
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} — ${violation.targets.join(', ')}`);
}

/** Opens a page and sums the gzip size of every script it loads until the network is idle, inline ones too. */
export async function firstLoadJsKb(page: Page, url: string): Promise<number> {
  const sizes: Promise<number>[] = [];
  const collect = (response: Response) => {
    if (response.request().resourceType() === 'script') sizes.push(response.body().then((body) => gzipSync(body).length));
  };
  page.on('response', collect);
  await page.goto(url, { waitUntil: 'networkidle' });
  page.off('response', collect);
  const inline = await page.evaluate(() => [...document.querySelectorAll('script:not([src])')].map((script) => script.textContent ?? ''));
  const bytes =
    (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0) + inline.reduce((sum, text) => sum + gzipSync(text).length, 0);
  return bytes / 1000;
}

/** Waits until the page's islands, or the one whose component is `component`, have hydrated (Astro drops their `ssr` attribute then). */
export async function hydrated(page: Page, component?: string): Promise<void> {
  if (component) await expect(page.locator(`astro-island[component-url*="${component}"]`)).not.toHaveAttribute('ssr', /.*/);
  else await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** Scrolls an island into view (a `client:visible` one hydrates only then) and waits until it has hydrated. */
export async function hydratedInView(page: Page, component: string): Promise<void> {
  await page.locator(`astro-island[component-url*="${component}"]`).scrollIntoViewIfNeeded();
  await hydrated(page, component);
}

/** Roles a user operates; each needs an accessible name. */
const CONTROL_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'combobox',
  'checkbox',
  'radio',
  'switch',
  'slider',
  'spinbutton',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'option',
  'listbox',
  'DisclosureTriangle',
]);

/** Controls without an accessible name, read from Chromium's own accessibility tree, with the start of their HTML. */
export async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  const { nodes } = await cdp.send('Accessibility.getFullAXTree');
  const unnamed = nodes.filter(
    (node) => !node.ignored && CONTROL_ROLES.has(String(node.role?.value)) && !String(node.name?.value ?? '').trim(),
  );
  const described = await Promise.all(
    unnamed.map(async (node) => {
      const html = node.backendDOMNodeId ? (await cdp.send('DOM.getOuterHTML', { backendNodeId: node.backendDOMNodeId })).outerHTML : '';
      return `${node.role?.value}: ${html.slice(0, 160)}`;
    }),
  );
  await cdp.detach();
  return described;
}
