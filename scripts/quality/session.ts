/**
 * What the signed-in page types of pages.ts need: a new buyer (signed up through the real email
 * code flow and the dev outbox), an order awaiting payment, a buyable listing, another account's
 * lottery entry whose share link the buyer opens as a friend, and an order paid in the sandbox and fulfilled by its seller, whose
 * voucher is public, and the demo's high-demand session, whose waiting room the buyer joins. Their ids fill the `{placeholders}` of those pages' paths.
 */
import { fulfilAsSeller, queryLocalDb } from '../demo-fulfil.ts';
import type { PageType } from './pages.ts';

/** A cookie of the signed-in buyer, as a browser context takes it. */
export interface SessionCookie {
  name: string;
  value: string;
}

/** The signed-in buyer: its cookies and the ids that fill the signed-in pages' paths. */
export interface SignedInSession {
  cookies: SessionCookie[];
  cookie: string;
  vars: Record<string, string | number>;
}

/** The API's envelope around every answer. */
interface Envelope<Data> {
  code: number;
  data: Data;
}

/** An order as the API answers it, in the parts used here. */
interface Order {
  id: number;
  orderNo: string;
}

/** Activities the quality gates buy from: not those of the e2e journeys, whose expiry test counts tickets exactly. */
const ACTIVITY_IDS = Array.from({ length: 100 }, (_, i) => 1200 + i);
/** The ticketed order's tickets: one is listed for transfer, one is left for the Sell / transfer page to offer. */
const TICKETED_QUANTITY = 2;
/**
 * Tickets a listing must have when an order of the gates is placed on it: both orders may land on the
 * same listing (1 + TICKETED_QUANTITY tickets), and the confirm page, opened on it afterwards, must
 * still find tickets (2 spare, as other suites buy on the same server meanwhile).
 */
const TICKETS_NEEDED = 1 + TICKETED_QUANTITY + 2;

/** A listing among a tier's offers, in the parts used here. */
interface OfferGroup {
  ticketGroup: { id: number };
  deliveryTypes: string[];
  minQuantity: number;
  maxQuantity: number;
  available: number;
}

/** E-ticket listings with tickets left on the activities above that sell `quantity` at once, lazily, in order. */
async function* buyableListings(baseUrl: string, cookie: string, quantity: number): AsyncGenerator<number> {
  for (const eventId of ACTIVITY_IDS) {
    const categories = (await fetch(`${baseUrl}/api/v1/ticketCategories?b2c=true&eventId=${eventId}`, { headers: { cookie } }).then((r) =>
      r.json(),
    )) as Partial<Envelope<{ id: number; hasTicket: boolean }[]>>;
    for (const category of (categories.data ?? []).filter((entry) => entry.hasTicket)) {
      const offers = await fetch(`${baseUrl}/api/v8/tickets`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ eventId, ticketCategoryId: category.id, buyType: 1 }),
      }).then((r) => r.json() as Promise<Partial<Envelope<{ ticketGroupInfoList: OfferGroup[] }[]>>>);
      for (const group of (offers.data ?? []).flatMap((entry) => entry.ticketGroupInfoList)) {
        if (
          group.deliveryTypes.includes('e_ticket') &&
          group.minQuantity === 1 &&
          group.maxQuantity >= quantity &&
          group.available >= TICKETS_NEEDED
        ) {
          yield group.ticketGroup.id;
        }
      }
    }
  }
}

async function json<Data>(response: Response, what: string): Promise<Data> {
  const body = (await response.json()) as Envelope<Data>;
  if (body.code !== 200) throw new Error(`${what}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

/** Places an e-ticket order for `quantity` tickets on the first listing that still has them. */
async function placeOrder(baseUrl: string, cookie: string, quantity = 1): Promise<{ listingId: number; order: Order }> {
  // Other suites buy on the same server at the same time: a listing emptied meanwhile is skipped.
  for await (const listingId of buyableListings(baseUrl, cookie, quantity)) {
    const quoted = await fetch(
      `${baseUrl}/api/v1/checkout/quote?listingId=${listingId}&quantity=${quantity}&deliveryType=e_ticket&coupon=none`,
      { headers: { cookie } },
    );
    if (quoted.status === 409) continue;
    const quote = await json<{ cost: { total: number } }>(quoted, 'quote');
    const created = await fetch(`${baseUrl}/api/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'idempotency-key': `quality-${Date.now()}-${listingId}` },
      body: JSON.stringify({
        listingId,
        quantity,
        deliveryType: 'e_ticket',
        paymentMethod: 'visa',
        coupon: 'none',
        acceptNotes: true,
        expectedTotal: quote.cost.total,
      }),
    });
    if (created.status === 409) continue;
    return { listingId, order: await json<Order>(created, 'create order') };
  }
  throw new Error(`The quality gates found no e-ticket listing with tickets left on activities ${ACTIVITY_IDS[0]}-${ACTIVITY_IDS.at(-1)}.`);
}

/** Pays an order by card on the sandbox's hosted page (approve), as a buyer's browser would. */
async function payInSandbox(baseUrl: string, cookie: string, orderId: number): Promise<void> {
  const payment = await json<{ checkoutUrl: string }>(
    await fetch(`${baseUrl}/api/v1/orders/${orderId}/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'idempotency-key': `quality-pay-${orderId}` },
      body: JSON.stringify({ method: 'visa' }),
    }),
    'start payment',
  );
  const approved = await fetch(new URL(payment.checkoutUrl, baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'decision=approve',
  });
  if (approved.status !== 303) throw new Error(`sandbox approve: ${approved.status}`);
}

/** Lists one ticket of a ticketed order for transfer at face value, so My Listings has a listing to show. */
async function listOneForTransfer(baseUrl: string, cookie: string, order: Order): Promise<void> {
  const { tier } = await json<{ tier: { faceValue: { amount: number; currency: string } } }>(
    await fetch(`${baseUrl}/api/v1/orders/${order.id}`, { headers: { cookie } }),
    'order to list',
  );
  await json(
    await fetch(`${baseUrl}/api/v1/orders/${order.id}/transfer-listings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ quantity: 1, price: tier.faceValue.amount, currency: tier.faceValue.currency, acceptAgreement: true }),
    }),
    'transfer listing',
  );
}

/** Joins the first open lottery as the account of `cookie`; its share link is the page a friend opens. */
async function lotteryShare(baseUrl: string, cookie: string): Promise<string> {
  const lotteries = await json<{ id: number; phase: string }[]>(await fetch(`${baseUrl}/api/v1/lotteries`), 'lotteries');
  const open = lotteries.find((lottery) => lottery.phase === 'open');
  if (!open) throw new Error('The quality gates found no open lottery in the demo seed.');
  const joined = await json<{ myEntry: { sharePath: string } }>(
    await fetch(`${baseUrl}/api/v1/lotteries/${open.id}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: '{}',
    }),
    'join lottery',
  );
  return joined.myEntry.sharePath;
}

/** Signs up a new account through the email code flow; resolves to its session cookies. */
async function signUp(baseUrl: string, label: string): Promise<{ cookies: SessionCookie[]; cookie: string }> {
  const email = `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  // An address of its own, so the code-sending limits per client never count the other suites' sign-ups.
  const clientAddress = `198.19.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
  const headers = { 'content-type': 'application/json', 'cf-connecting-ip': clientAddress };
  await json(
    await fetch(`${baseUrl}/api/v1/user/mail/regVerify`, { method: 'POST', headers, body: JSON.stringify({ email }) }),
    'regVerify',
  );
  const outbox = await json<{ body: string }[]>(
    await fetch(`${baseUrl}/api/v1/dev/outbox?target=${encodeURIComponent(email)}`),
    'dev outbox',
  );
  const code = /\b(\d{6})\b/.exec(outbox[0]?.body ?? '')?.[1];
  const registered = await fetch(`${baseUrl}/api/v1/user/mail/register`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email, code, password: 'Quality2026', agreement: true }),
  });
  await json(registered.clone(), 'register');
  const cookies = registered.headers.getSetCookie().map((line) => {
    const [pair] = line.split(';');
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at).trim(), value: pair.slice(at + 1).trim() };
  });
  return { cookies, cookie: cookies.map(({ name, value }) => `${name}=${value}`).join('; ') };
}

/**
 * Signs up a buyer with an order awaiting payment and a friend's lottery share link to help with
 * (the page with the Help button), and, when the server's database folder is given (the seller is
 * looked up there), a paid order of two tickets its seller has ticketed, one of them listed for
 * transfer; resolves to { cookies, cookie, vars }.
 */
export async function signedInSession(baseUrl: string, persistTo?: string): Promise<SignedInSession> {
  const { cookies, cookie } = await signUp(baseUrl, 'quality');
  const friend = await signUp(baseUrl, 'quality-friend');

  const { listingId, order } = await placeOrder(baseUrl, cookie);
  // The demo seed's upcoming high-demand session: its waiting room, where the buyer joins the early group.
  const [hot] = await queryLocalDb<{ id: number }>(baseUrl, 'SELECT id FROM activity_sessions WHERE high_demand = 1 ORDER BY id LIMIT 1');
  const vars: SignedInSession['vars'] = {
    listingId,
    orderId: order.id,
    sharePath: await lotteryShare(baseUrl, friend.cookie),
    waitingRoomSessionId: hot.id,
  };
  if (persistTo) {
    const { order: paid } = await placeOrder(baseUrl, cookie, TICKETED_QUANTITY);
    await payInSandbox(baseUrl, cookie, paid.id);
    await fulfilAsSeller({ baseUrl, orderNo: paid.orderNo });
    await listOneForTransfer(baseUrl, cookie, paid);
    const ticketed = await json<{ voucherUrl: string }>(
      await fetch(`${baseUrl}/api/v1/orders/${paid.id}`, { headers: { cookie } }),
      'ticketed order',
    );
    Object.assign(vars, { ticketedOrderId: paid.id, voucherPath: ticketed.voucherUrl });
  }
  return { cookies, cookie, vars };
}

/** A page type's path for a locale with its placeholders filled. */
export function pathOf(pageType: PageType, locale: string, vars: SignedInSession['vars'] = {}): string {
  return pageType.paths[locale].replace(/\{(\w+)\}/g, (_, name: string) => {
    if (vars[name] === undefined) throw new Error(`${pageType.name}: no value for {${name}}`);
    return String(vars[name]);
  });
}
