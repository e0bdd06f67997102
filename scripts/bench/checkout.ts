/**
 * The checkout row of `npm run bench`: order creation under concurrent buyers. Buyers sign up
 * through the real email-code flow, then autocannon keeps CONNECTIONS order submissions in flight,
 * each with its own Idempotency-Key and a buyer's session in turn, against one listing. Afterwards
 * the database must agree with the answers: as many orders as 200s (plus at most one in flight per
 * connection when the run stops), and the stock down by exactly the tickets of the stored orders.
 */
import autocannon, { type Request } from 'autocannon';
import { COUNT_ROUND_TRIPS_HEADER, ROUND_TRIPS_HEADER } from '../../src/lib/data/measured-d1.ts';
import { query } from '../local-db.ts';

const BUYERS = 20;
const STOCK = 1_000_000;
/** Orders timed one at a time from their request to their message in the outbox. */
const MESSAGE_SAMPLES = 20;

/** The API's envelope around every answer. */
interface Envelope<Data> {
  code: number;
  data: Data;
}

/** The listing the checkout row orders from. */
export interface CheckoutListing {
  listingId: number;
  tierId: number;
  activityId: number;
}

/** A latency's samples, median and 95th percentile. */
export interface LatencySummary {
  samples: number;
  p50Ms: number;
  p95Ms: number;
}

/** How long a buyer waits for a message: a login code, and an order's "placed" message. */
export interface MessageTimes {
  loginCode: LatencySummary;
  orderPlaced: LatencySummary;
}

/** A listing that sells now as an e-ticket (no address or attendee needed), with room for the whole run. */
export function prepareCheckoutListing(persistTo: string): CheckoutListing {
  const [row] = query<{ id: number; tierId: number; activityId: number }>(
    persistTo,
    `SELECT l.id AS id, t.id AS tierId, a.id AS activityId FROM listings l
    JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
    WHERE l.status = 'active' AND a.status IN (1, 4) AND a.sale_starts_at <= ${Date.now()} AND s.starts_at > ${Date.now() + 86_400_000}
      AND a.real_name_required = 0 AND instr(l.delivery_types, 'e_ticket') > 0 ORDER BY l.id LIMIT 1`,
  );
  if (!row) throw new Error('No e-ticket listing on sale in the demo catalogue.');
  query(persistTo, `UPDATE listings SET quantity_available = ${STOCK}, quantity_total = ${STOCK} WHERE id = ${row.id}`);
  return { listingId: row.id, tierId: row.tierId, activityId: row.activityId };
}

async function signUp(baseUrl: string, email: string, timings: number[] = []): Promise<string> {
  const json = { 'content-type': 'application/json' };
  const asked = performance.now();
  const sent = await fetch(`${baseUrl}/api/v1/user/mail/regVerify`, { method: 'POST', headers: json, body: JSON.stringify({ email }) });
  if (!sent.ok) throw new Error(`regVerify for ${email}: ${sent.status} ${await sent.text()}`);
  const outbox = (await (await fetch(`${baseUrl}/api/v1/dev/outbox?target=${encodeURIComponent(email)}`)).json()) as Envelope<
    { body: string }[]
  >;
  const code = /\b(\d{6})\b/.exec(outbox.data[0]?.body ?? '')?.[1];
  // A login code is sent inside the request: it is in the outbox when the answer arrives.
  if (code) timings.push(performance.now() - asked);
  const registered = await fetch(`${baseUrl}/api/v1/user/mail/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ email, code, password: 'Bench2026pass', agreement: true }),
  });
  if (!registered.ok) throw new Error(`register ${email}: ${registered.status} ${await registered.text()}`);
  return registered.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
}

/**
 * Orders stored and tickets left, read back through the API (the server's own view of D1): every
 * buyer's pending orders, and the listing's stock from the ticket picker's offers.
 */
async function ordersOnListing(
  baseUrl: string,
  cookies: string[],
  listing: CheckoutListing,
): Promise<{ orders: number; available: number }> {
  const pages = await Promise.all(
    cookies.map(
      (cookie) =>
        fetch(`${baseUrl}/api/v1/orders?tab=pending_payment`, { headers: { cookie } }).then((r) => r.json()) as Promise<
          Envelope<{ total: number }>
        >,
    ),
  );
  const offers = (await (
    await fetch(`${baseUrl}/api/v8/tickets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventId: listing.activityId, ticketCategoryId: listing.tierId, buyType: 1 }),
    })
  ).json()) as Envelope<{ ticketGroupInfoList: { ticketGroup: { id: number }; available: number }[] }[]>;
  const group = offers.data.flatMap((offer) => offer.ticketGroupInfoList).find((entry) => entry.ticketGroup.id === listing.listingId);
  if (!group) throw new Error(`listing ${listing.listingId} is not among its tier's offers`);
  return { orders: pages.reduce((sum, page) => sum + page.data.total, 0), available: group.available };
}

/**
 * The counts once the server has finished what autocannon left in flight when it stopped (its
 * sockets close, the worker still completes those requests): read until two reads agree.
 */
async function settledOrders(baseUrl: string, cookies: string[], listing: CheckoutListing) {
  let last = await ordersOnListing(baseUrl, cookies, listing);
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = await ordersOnListing(baseUrl, cookies, listing);
    if (now.orders === last.orders && now.available === last.available) return now;
    last = now;
  }
}

function summary(times: number[]): LatencySummary {
  const sorted = [...times].sort((a, b) => a - b);
  const pick = (q: number) => Number(sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)].toFixed(0));
  return { samples: sorted.length, p50Ms: pick(0.5), p95Ms: pick(0.95) };
}

/**
 * How long the queue takes to tell a buyer: from sending an order, one at a time on a quiet server,
 * until its "order placed" message is in the dev outbox (written by the queue consumer).
 */
async function orderMessageTimes(baseUrl: string, run: string, cookies: string[], body: string): Promise<LatencySummary> {
  const times: number[] = [];
  for (let i = 0; i < MESSAGE_SAMPLES; i += 1) {
    const email = `${run}-${i % BUYERS}@example.com`;
    const started = performance.now();
    const answer = await fetch(`${baseUrl}/api/v1/orders`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: cookies[i % BUYERS], 'idempotency-key': `${run}-message-${i}` },
      body,
    }).then((response) => response.json() as Promise<Envelope<{ orderNo: string }>>);
    if (answer.code !== 200) throw new Error(`an order for the message timing: ${JSON.stringify(answer)}`);
    const outbox = `${baseUrl}/api/v1/dev/outbox?target=${encodeURIComponent(email)}`;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const entries = ((await (await fetch(outbox)).json()) as Envelope<{ body: string }[]>).data;
      if (entries.some((entry) => entry.body.includes(answer.data.orderNo))) break;
      if (Date.now() > deadline) throw new Error(`order ${answer.data.orderNo}: no message in the dev outbox after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    times.push(performance.now() - started);
  }
  return summary(times);
}

/**
 * BUYERS buyers signed up through the email-code flow, each code timed from asking to the outbox,
 * then MESSAGE_SAMPLES orders timed to their "placed" message: the buyers' cookies, the order body
 * for the listing, and the two message latencies.
 */
export async function buyersWithMessageTimes(
  baseUrl: string,
  listingId: number,
  run: string,
): Promise<{ cookies: string[]; body: string; messages: MessageTimes }> {
  const cookies: string[] = [];
  const codeTimes: number[] = [];
  for (let i = 0; i < BUYERS; i += 1) cookies.push(await signUp(baseUrl, `bench-${run}-${i}@example.com`, codeTimes));
  const quote = (await (
    await fetch(`${baseUrl}/api/v1/checkout/quote?listingId=${listingId}&quantity=1&deliveryType=e_ticket&coupon=none`, {
      headers: { cookie: cookies[0] },
    })
  ).json()) as Envelope<{ cost: { total: number } }>;
  if (quote.code !== 200) throw new Error(`checkout quote: ${JSON.stringify(quote)}`);
  const body = JSON.stringify({
    listingId,
    quantity: 1,
    deliveryType: 'e_ticket',
    paymentMethod: 'visa',
    coupon: 'none',
    acceptNotes: true,
    expectedTotal: quote.data.cost.total,
  });
  const messages = { loginCode: summary(codeTimes), orderPlaced: await orderMessageTimes(baseUrl, `bench-${run}`, cookies, body) };
  return { cookies, body, messages };
}

/** A load row of the bench: its rate, latencies and the D1 round trips of one request. */
export interface LoadRow {
  name: string;
  request: string;
  requestsPerSecond: number;
  requests: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  roundTrips: number;
  verified?: string;
}

/**
 * Measures order creation and checks the database afterwards. Returns the bench row and placeOrder,
 * which submits one more order as the next buyer (its response), for later runs on the same database.
 */
export async function benchCheckout({
  baseUrl,
  listing,
  connections,
  durationS,
  warmupS,
}: {
  baseUrl: string;
  listing: CheckoutListing;
  connections: number;
  durationS: number;
  warmupS: number;
}): Promise<{ row: LoadRow; placeOrder: (headers?: Record<string, string>) => Promise<Response>; messages: MessageTimes }> {
  const run = Date.now().toString(36);
  const { cookies, body, messages } = await buyersWithMessageTimes(baseUrl, listing.listingId, run);
  let sent = 0;
  const request = (defaults: Request): Request => ({
    ...defaults,
    method: 'POST',
    path: '/api/v1/orders',
    headers: { 'content-type': 'application/json', cookie: cookies[sent % BUYERS], 'idempotency-key': `bench-${run}-${sent++}` },
    body,
  });
  const fire = (duration: number, latencies?: number[]) => {
    const instance = autocannon({ url: baseUrl, connections, duration, requests: [{ setupRequest: request }] });
    if (latencies) instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
    return instance;
  };
  await fire(warmupS);
  const before = await settledOrders(baseUrl, cookies, listing);
  const latencies: number[] = [];
  const result = await fire(durationS, latencies);
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) {
    throw new Error(
      `checkout under load: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers (by status: ${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  const after = await settledOrders(baseUrl, cookies, listing);
  const created = after.orders - before.orders;
  // Requests still in flight when the run ends are stored but not counted: at most one per connection.
  const unanswered = created - latencies.length;
  if (unanswered < 0 || unanswered > connections || before.available - after.available !== created) {
    throw new Error(
      `checkout bookkeeping: ${latencies.length} orders answered, ${created} stored, stock ${before.available} → ${after.available}`,
    );
  }
  latencies.sort((a, b) => a - b);
  const pick = (q: number) => Number(latencies[Math.max(0, Math.ceil(q * latencies.length) - 1)].toFixed(1));
  const placeOrder = (headers = {}) => {
    const { headers: orderHeaders, body: orderBody } = request({});
    return fetch(`${baseUrl}/api/v1/orders`, { method: 'POST', headers: { ...orderHeaders, ...headers }, body: orderBody });
  };
  const counted = await placeOrder({ [COUNT_ROUND_TRIPS_HEADER]: '1' });
  if (!counted.ok) throw new Error(`a counted order: ${counted.status} ${await counted.text()}`);
  const row = {
    name: `checkout: create order, ${BUYERS} buyers`,
    request: 'POST /api/v1/orders',
    requestsPerSecond: Math.round(result.requests.average),
    requests: latencies.length,
    p50Ms: pick(0.5),
    p95Ms: pick(0.95),
    p99Ms: pick(0.99),
    verified: `${created} orders stored, stock down by ${before.available - after.available}`,
    roundTrips: Number(counted.headers.get(ROUND_TRIPS_HEADER)),
  };
  return { row, placeOrder, messages };
}
