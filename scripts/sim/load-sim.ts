/**
 * `npm run sim`: a hot on-sale against the built worker on this machine, loopback only
 * (docs/hot-on-sale.md "Simulation"). On its own port and a fresh database folder it makes a
 * high-demand session whose sale opens a few seconds after the burst begins, with one listing of K
 * tickets, and signs up N buyers (the email-code flow, one client address each). The buyers arrive in
 * a burst: the early ones before the opening (their order is drawn), the late ones after it, one after
 * another. Each polls the waiting room as its page does (at the interval the server suggests, at most
 * SIM_POLL_MAX_MS; an early page learns its drawn position at a random moment within
 * SIM_DRAW_SPREAD_MS, which the app spreads over 2 minutes), reads its pass from the order
 * confirmation page once through, quotes and orders one ticket (a hold through the session's
 * inventory object), then pays in the sandbox or abandons the order; a buyer whose waiting page
 * says every ticket is taken leaves the line.
 * Meanwhile buyers order at an unrelated show, four orders a second (each timed, none waiting for
 * the one before), before the burst, during it and after it (idle: before and after together).
 *
 * With SIM_AUTO_SWITCH_PER_MINUTE set, the session is a plain one that nobody marked, and the server
 * runs with that threshold (HIGH_DEMAND_ORDERS_PER_MINUTE): every buyer arrives after the opening and
 * orders straight away, until checkout's order rate turns the session high demand by itself; from
 * then on an order without a pass is refused (403) and a confirmation page sends its buyer to the
 * waiting room, and the buyers queue and buy as above. The run checks that the switch happened and
 * that no ticket was sold twice across it (orders through D1 before, holds through the object after).
 *
 * Reports the admission rate, the fairness (Kendall tau of arrival order against admission order,
 * late and early arrivals apart), admission-to-paid time, holds/s, the unrelated checkout's latency
 * idle and during the burst, the server's CPU (its busiest thread running, and waiting for a CPU
 * the machine's other processes hold), and checks D1 at the end: never more than K tickets held or paid, the
 * stock never negative (sampled during the run, read at the end). An oversell fails the run, as do
 * an error answer or the hard timeout. Writes bench-results/load-sim-<time>.json, load-sim-latest.json
 * and load-sim-latest.md (the table), and prints the table.
 *
 *   npm run sim                      build, then simulate
 *   SIM_SKIP_BUILD=1 npm run sim     simulate on the dist/ already built
 *   SIM_BUYERS=300 SIM_TICKETS=100 SIM_ABANDON_SHARE=0.2 SIM_EARLY_SHARE=0.5
 *   SIM_ADMISSIONS_PER_MINUTE=600    the room's rate (the app's default)
 *   SIM_OPENS_AFTER_MS=5000 SIM_LATE_SPREAD_MS=10000 SIM_POLL_MAX_MS=30000 SIM_DRAW_SPREAD_MS=20000
 *   SIM_TIMEOUT_MS=300000 SIM_SEED=20 SIM_PORT=8791
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { kendallTau } from '../../src/lib/domain/rank-correlation.ts';
import { build, migrate, ROOT, seedIfEmpty, serveArgs, WRANGLER, MEASURING_ENV } from '../local-db.ts';
import { assertNothingAnswers, type StartedServer, startServer } from '../server.ts';
import { type Machine, machine, percentile } from '../bench/measurements.ts';

/** The API's envelope around every answer. */
interface Envelope<Data> {
  code?: number;
  errorCode?: string;
  message?: string;
  data: Data;
}

interface RequestOptions {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
  form?: string;
}

/** What the waiting room tells a buyer's page. */
interface WaitingView {
  state: 'early' | 'waiting' | 'admitted' | 'expired';
  position: number;
  place: number;
  soldOut?: boolean;
  drawn?: boolean;
  opensInMs: number;
  pollAfterMs: number;
}

/** The hot show's new session and listing, and the opening of its sale. */
interface HotListing {
  listingId: number;
  sessionId: number;
  activityId: number;
  openSale: (at: number) => Promise<unknown>;
}

type Outcome = 'paid' | 'abandoned' | 'sold out' | 'error';

/** A buyer of the hot show: when it arrives and what it does, then what happened to it and when (ms on the burst's clock). */
interface Buyer {
  index: number;
  client: Client;
  early: boolean;
  arriveAt: number;
  abandons: boolean;
  drawDelayMs: number;
  arrivedAt?: number;
  queued?: boolean;
  joinedAt?: number;
  polls?: number;
  position?: number;
  admittedAt?: number;
  orderSentAt?: number;
  orderAnsweredAt?: number;
  paidAt?: number;
  outcome?: Outcome;
  toldInLine?: boolean;
}

/** An unrelated order's start (performance.now()) and its answer time. */
interface Sample {
  startedAt: number;
  ms: number;
}

interface Spread {
  samples: number;
  p50Ms: number | null;
  p95Ms: number | null;
}

/** The server's CPU over a phase, as shares of its wall time. */
interface ServerCpu {
  allThreads: number;
  busiestThread: number;
  busiestThreadWaiting: number;
}

type Clock = () => number;

/** What the simulation measured (simulate). */
interface SimResults {
  signUpSeconds: number;
  burstSeconds: number;
  admission: { configuredPerSecond: number; achievedPerSecond: number; pollsPerBuyer: number };
  fairness: { lateTau: number | null; earlyTau: number | null };
  outcomes: { paid: number; abandoned: number; soldOut: number; toldInLine: number };
  admissionToPaid: Spread;
  holdAnswer: Spread;
  holdsPerSecond: number | null;
  stock: { total: number; available: number; held: number; paid: number; minimumSeen: number; answeredHolds: number };
  unrelatedCheckout: { idleBefore: Spread; idleAfter: Spread; idle: Spread; duringBurst: Spread; p50Ratio: number; p95Ratio: number };
  serverCpu: { idleBefore: ServerCpu | null; duringBurst: ServerCpu | null; idleAfter: ServerCpu | null };
  burstTimeline: ReturnType<typeof timeline>;
  autoSwitch?: { ordersPerMinute: number; switched: boolean; directOrders: number; queued: number };
  soldExactly: boolean;
}

/** The run's settings, the machine, and what it measured. */
interface SimReport extends SimResults {
  date: string;
  machine: Machine & { loadAverage: number[] };
  buyers: number;
  earlyBuyers: number;
  tickets: number;
  abandonShare: number;
  admissionsPerMinute: number;
  opensAfterMs: number;
  lateSpreadMs: number;
  pollMaxMs: number;
  drawSpreadMs: number;
  seed: number;
  autoSwitchPerMinute: number | null;
  loadAverageAtEnd: number[];
}

const settings = <Fallback extends number | null>(name: string, fallback: Fallback): number | Fallback =>
  process.env[name] === undefined ? fallback : Number(process.env[name]);
const BUYERS = settings('SIM_BUYERS', 300);
const TICKETS = settings('SIM_TICKETS', 100);
const ABANDON_SHARE = settings('SIM_ABANDON_SHARE', 0.2);
/** Orders a minute at which the plain session turns high demand by itself; unset: an operator marked it before the sale. */
const AUTO_SWITCH_PER_MINUTE = settings('SIM_AUTO_SWITCH_PER_MINUTE', null);
// A plain session has no line before its sale: everyone arrives once it opened.
const EARLY_SHARE = AUTO_SWITCH_PER_MINUTE === null ? settings('SIM_EARLY_SHARE', 0.5) : 0;
const ADMISSIONS_PER_MINUTE = settings('SIM_ADMISSIONS_PER_MINUTE', 600);
const OPENS_AFTER_MS = settings('SIM_OPENS_AFTER_MS', 5000);
const LATE_SPREAD_MS = settings('SIM_LATE_SPREAD_MS', 10_000);
const POLL_MAX_MS = settings('SIM_POLL_MAX_MS', 30_000);
const DRAW_SPREAD_MS = settings('SIM_DRAW_SPREAD_MS', 20_000);
const TIMEOUT_MS = settings('SIM_TIMEOUT_MS', 300_000);
const SEED = settings('SIM_SEED', 20);
const port = settings('SIM_PORT', 8791);

/** Buyers of the unrelated show, who order in turn. */
const UNRELATED_BUYERS = 10;
/**
 * How often an unrelated order starts (± half, seeded), whether or not the ones before it have been
 * answered: a steady 4 orders a second samples the latency without itself loading the server (back
 * to back, the probe alone kept the worker busy most of the time, and measured its own queue).
 */
const UNRELATED_EVERY_MS = 250;
const IDLE_WARM_UP = 10;
/** Timed orders of the unrelated show before the burst, and again after it (the machine is shared: its load moves). */
const IDLE_SAMPLES = 40;
/** The pause after the last buyer before the idle orders after the burst, for the last batches and alarms to finish. */
const SETTLE_MS = 2000;
const SIGN_UP_CONCURRENCY = 8;
const STOCK_SAMPLE_MS = 2000;
const FRONT_SAMPLE_MS = 250;
const START_TIMEOUT_MS = 90_000;
const REQUEST_TIMEOUT_MS = 60_000;
const UNRELATED_STOCK = 1_000_000;
const DAY_MS = 24 * 3600 * 1000;
/** Order statuses whose tickets are out of the listing: held (awaiting payment) or paid. */
const HOLDING_STATUSES = ['pending_payment', 'pending_ticketing', 'pending_receipt', 'completed'];

const baseUrl = `http://127.0.0.1:${port}`;
const persistTo = path.join(ROOT, '.wrangler', `sim-state-${port}`);
const resultsDir = path.join(ROOT, 'bench-results');
const run = Date.now().toString(36);

/** A seeded generator in [0, 1) (mulberry32): the same SIM_SEED gives the same arrivals and abandons. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (ms: number | null) => (ms === null ? null : Number(ms.toFixed(1)));
  return { samples: sorted.length, p50Ms: round(percentile(sorted, 0.5)), p95Ms: round(percentile(sorted, 0.95)) };
}

/**
 * The requests started in each second of the burst by kind (join, poll, page…), from the opening:
 * set beside the unrelated checkout's samples, it shows which moment of the burst makes its tail.
 */
const traffic = {
  since: null as number | null,
  seconds: new Map<number, Record<string, number>>(),
  kindOf(method: string, pathname: string): string {
    if (pathname.startsWith('/api/v1/waiting-rooms/')) return pathname.endsWith('/front') || pathname.includes('/front?') ? 'poll' : 'join';
    if (pathname.startsWith('/en/order/confirm')) return 'page';
    if (pathname.startsWith('/api/v1/checkout/quote')) return 'quote';
    if (pathname === '/api/v1/orders' && method === 'POST') return 'order';
    return 'other';
  },
  count(method: string, pathname: string): void {
    if (this.since === null) return;
    const second = Math.floor((performance.now() - this.since) / 1000);
    const tally: Record<string, number> = this.seconds.get(second) ?? {};
    const kind = this.kindOf(method, pathname);
    tally[kind] = (tally[kind] ?? 0) + 1;
    this.seconds.set(second, tally);
  },
};

/** A buyer's browser: its cookies and its own client address (the code-sending limits count per address). */
class Client {
  readonly address: string;
  readonly cookies = new Map<string, string>();

  constructor(address: string) {
    this.address = address;
  }

  async request(pathname: string, { method = 'GET', body, headers = {}, form }: RequestOptions = {}): Promise<Response> {
    traffic.count(method, pathname);
    const response = await fetch(`${baseUrl}${pathname}`, {
      method,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      headers: {
        'cf-connecting-ip': this.address,
        origin: baseUrl,
        language: 'en',
        cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
        ...headers,
      },
      body: body === undefined ? form : JSON.stringify(body),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  /** An API call's envelope; any answer but `expected` (200 by default) throws. */
  async api<Data>(pathname: string, options: RequestOptions = {}, expected = [200]): Promise<{ status: number; envelope: Envelope<Data> }> {
    const response = await this.request(pathname, options);
    // An expected answer is the API's JSON envelope.
    const envelope = (await response.json().catch(() => null)) as Envelope<Data>;
    if (!expected.includes(response.status)) {
      throw new Error(`${options.method ?? 'GET'} ${pathname}: ${response.status} ${JSON.stringify(envelope)}`);
    }
    return { status: response.status, envelope };
  }
}

const anyone = new Client('198.18.255.254');

async function sql<Row = Record<string, number>>(statement: string): Promise<Row[]> {
  return (await anyone.api<Row[]>('/api/v1/dev/sql', { method: 'POST', body: { sql: statement } })).envelope.data;
}

/** Registers a new account through the email-code flow; the client is signed in afterwards. */
async function signUp(client: Client, email: string): Promise<void> {
  await client.api('/api/v1/user/mail/regVerify', { method: 'POST', body: { email } });
  const outbox = await client.api<{ body: string }[]>(`/api/v1/dev/outbox?target=${encodeURIComponent(email)}`);
  const code = /\b(\d{6})\b/.exec(outbox.envelope.data[0]?.body ?? '')?.[1];
  if (!code) throw new Error(`No sign-up code in the dev outbox for ${email}`);
  await client.api('/api/v1/user/mail/register', { method: 'POST', body: { email, code, password: 'Sim2026pass', agreement: true } });
}

/** Runs `work` over the items, `concurrency` at a time. */
async function inTurns<Item>(items: Item[], concurrency: number, work: (item: Item) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]);
    }),
  );
}

async function startSimServer(): Promise<StartedServer> {
  await assertNothingAnswers(baseUrl, 'set SIM_PORT');
  const vars = {
    APP_ENV: 'local',
    ...(AUTO_SWITCH_PER_MINUTE === null ? {} : { HIGH_DEMAND_ORDERS_PER_MINUTE: String(AUTO_SWITCH_PER_MINUTE) }),
  };
  return startServer({
    command: WRANGLER,
    args: serveArgs(persistTo, port, vars),
    env: MEASURING_ENV,
    url: `${baseUrl}/api/`,
    up: (status) => status === 200,
    timeoutMs: START_TIMEOUT_MS,
    pollMs: 100,
  });
}

/** An e-ticket listing on sale at a show more than a day away, one ticket an order allowed; not of `otherActivityId`. */
async function onSaleListing(otherActivityId: number): Promise<{ id: number; tierId: number; sessionId: number; activityId: number }> {
  const [row] = await sql<{ id: number; tierId: number; sessionId: number; activityId: number }>(
    `SELECT l.id AS id, l.tier_id AS tierId, t.session_id AS sessionId, a.id AS activityId FROM listings l
    JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
    WHERE l.status = 'active' AND l.source_order_id IS NULL AND a.status IN (1, 4) AND a.sale_starts_at <= ${Date.now()}
      AND s.starts_at > ${Date.now() + DAY_MS} AND a.real_name_required = 0 AND a.num_min <= 1
      AND instr(l.delivery_types, 'e_ticket') > 0 AND a.id <> ${otherActivityId} ORDER BY l.id LIMIT 1`,
  );
  if (!row) throw new Error('No e-ticket listing on sale in the demo catalogue.');
  return row;
}

/**
 * The unrelated show's listing, with stock for the whole run. When sessions switch by themselves, an
 * operator's decision keeps its session plain: the probe's own 240 orders a minute would pass a low
 * threshold.
 */
async function unrelatedListing() {
  const listing = await onSaleListing(0);
  await sql(`UPDATE listings SET quantity_available = ${UNRELATED_STOCK}, quantity_total = ${UNRELATED_STOCK} WHERE id = ${listing.id}`);
  if (AUTO_SWITCH_PER_MINUTE !== null) {
    await sql(
      `INSERT INTO operator_high_demand_switches (session_id, high_demand, switched_at) VALUES (${listing.sessionId}, 0, ${Date.now()})`,
    );
  }
  return listing;
}

/**
 * A new session of another activity, 30 days away, with one listing of TICKETS e-tickets: high demand,
 * or plain when it is to switch by itself; its activity's sale is closed until `openSale` sets the opening.
 */
async function hotListing(unrelatedActivityId: number): Promise<HotListing> {
  const source = await onSaleListing(unrelatedActivityId);
  const startsAt = Date.now() + 30 * DAY_MS;
  const [session] = await sql(`
    INSERT INTO activity_sessions (activity_id, starts_at, ends_at, high_demand)
    SELECT activity_id, ${startsAt}, ${startsAt + 3 * 3600_000}, ${AUTO_SWITCH_PER_MINUTE === null ? 1 : 0}
    FROM activity_sessions WHERE id = ${source.sessionId} RETURNING id`);
  const [tier] = await sql(`
    INSERT INTO ticket_tiers (session_id, name_en, name_zh_hant, name_zh_hans, face_value, currency, sort)
    SELECT ${session.id}, 'Hot on-sale', name_zh_hant, name_zh_hans, face_value, currency, sort FROM ticket_tiers WHERE id = ${source.tierId} RETURNING id`);
  const [listing] = await sql(`
    INSERT INTO listings (tier_id, seller_id, price, currency, quantity_total, quantity_available, seating, delivery_types, status, created_at)
    SELECT ${tier.id}, seller_id, price, currency, ${TICKETS}, ${TICKETS}, seating, 'e_ticket', 'active', created_at FROM listings WHERE id = ${source.id} RETURNING id`);
  const openSale = (at: number) => sql(`UPDATE activities SET sale_starts_at = ${at} WHERE id = ${source.activityId}`);
  await openSale(Date.now() + DAY_MS);
  return { listingId: listing.id, sessionId: session.id, activityId: source.activityId, openSale };
}

const orderBody = (listingId: number, expectedTotal: number, extra = {}) => ({
  listingId,
  quantity: 1,
  deliveryType: 'e_ticket',
  paymentMethod: 'visa',
  coupon: 'none',
  acceptNotes: true,
  expectedTotal,
  ...extra,
});

/** The total to order one ticket at, or null when the listing is sold out (the page then says so). */
async function quotedTotal(client: Client, listingId: number): Promise<number | null> {
  const quote = await client.api<{ cost: { total: number } }>(
    `/api/v1/checkout/quote?listingId=${listingId}&quantity=1&deliveryType=e_ticket&coupon=none`,
    {},
    [200, 409],
  );
  if (quote.status === 200) return quote.envelope.data.cost.total;
  if (quote.envelope?.errorCode !== 'tickets_sold_out') throw new Error(`quote: ${JSON.stringify(quote.envelope)}`);
  return null;
}

/**
 * The unrelated show's checkout, its buyers ordering in turn, an order started every
 * UNRELATED_EVERY_MS (± half) whatever the earlier ones are doing, so that a slow moment delays no
 * sample: `idle` times IDLE_SAMPLES orders (after `warmUp` untimed ones, one after another),
 * `during` times orders until `stop()`.
 */
function unrelatedCheckout(buyers: Client[], listingId: number, expectedTotal: number, random: () => number) {
  let sent = 0;
  const orderOnce = async (): Promise<Sample> => {
    const client = buyers[sent % buyers.length];
    sent += 1;
    const started = performance.now();
    const order = await client.api<{ id: number }>('/api/v1/orders', {
      method: 'POST',
      headers: { 'idempotency-key': `sim-${run}-unrelated-${sent}` },
      body: orderBody(listingId, expectedTotal),
    });
    const sample = { startedAt: started, ms: performance.now() - started };
    // Untimed: the buyer lets the order go, so the probe's orders never reach an account's ticket cap or unpaid limit.
    await client.api(`/api/v1/orders/${order.envelope.data.id}/cancel`, { method: 'POST' });
    return sample;
  };
  const paced = async (done: () => boolean) => {
    const times: Sample[] = [];
    const answers: Promise<unknown>[] = [];
    while (!done()) {
      answers.push(orderOnce().then((sample) => times.push(sample)));
      await wait(UNRELATED_EVERY_MS * (0.5 + random()));
    }
    await Promise.all(answers);
    return times;
  };
  return {
    async idle(warmUp: number) {
      for (let i = 0; i < warmUp; i += 1) await orderOnce();
      let started = 0;
      return paced(() => started++ >= IDLE_SAMPLES);
    },
    during() {
      let stopped = false;
      const loop = paced(() => stopped);
      return {
        stop: () => {
          stopped = true;
          return loop;
        },
      };
    },
  };
}

/** The pass the order confirmation page carries for a buyer let through (its island's props). */
function passOnPage(html: string): string | null {
  const props = html.replaceAll('&quot;', '"');
  return /"waitingRoomPass":\[0,"([^"]+)"\]/.exec(props)?.[1] ?? null;
}

/**
 * One buyer's visit: arrives at `arriveAt`, waits in the room polling as the waiting page does, once
 * through reads the pass, quotes, orders, and pays or abandons. Returns what happened and when.
 */
async function visit(buyer: Buyer, hot: HotListing, clock: Clock): Promise<void> {
  await wait(buyer.arriveAt - clock());
  buyer.arrivedAt = clock();
  if (AUTO_SWITCH_PER_MINUTE !== null && (await buyWithoutLine(buyer, hot, clock))) return;
  buyer.queued = true;
  await queueAndBuy(buyer, hot, clock);
}

/**
 * A plain session's buyer orders straight away, as long as it is plain: answers false when the
 * session turned high demand first (the confirmation page sent them to the waiting room, or the
 * order was refused for want of a pass).
 */
async function buyWithoutLine(buyer: Buyer, hot: HotListing, clock: Clock): Promise<boolean> {
  const page = await buyer.client.request(`/en/order/confirm?listingId=${hot.listingId}&quantity=1`);
  if (page.status === 303 && page.headers.get('location')?.includes('/waiting-room/')) return false;
  if (page.status === 409) {
    buyer.outcome = 'sold out';
    return true;
  }
  if (page.status !== 200) throw new Error(`buyer ${buyer.index}: the order confirmation page answered ${page.status}`);
  return buy(buyer, hot, clock, null);
}

/** The buyer's visit through the waiting room: join, poll until through, then buy with the pass. */
async function queueAndBuy(buyer: Buyer, hot: HotListing, clock: Clock): Promise<void> {
  const { client } = buyer;
  const room = `/api/v1/waiting-rooms/${hot.sessionId}`;
  buyer.joinedAt = clock();
  let view = (await client.api<WaitingView>(room, { method: 'POST', body: {} })).envelope.data;
  let polls = 0;
  while (view.state !== 'admitted') {
    if (view.state === 'expired') throw new Error(`buyer ${buyer.index}: the pass lapsed before ordering`);
    // The page says every ticket is taken for now: this buyer leaves the line (the place would wait for returns).
    if (view.state === 'waiting' && view.soldOut) {
      Object.assign(buyer, { polls, position: view.position, outcome: 'sold out', toldInLine: true });
      return;
    }
    polls += 1;
    if (view.state === 'early' && view.opensInMs <= view.pollAfterMs) {
      // The page's next question would come at the opening: it reloads (joins again, which answers
      // its drawn position) at the opening plus its own moment of the spread, without polling first.
      await wait(view.opensInMs + buyer.drawDelayMs);
      view = (await client.api<WaitingView>(room, { method: 'POST', body: {} })).envelope.data;
      continue;
    }
    await wait(Math.min(view.pollAfterMs, POLL_MAX_MS));
    if (view.state === 'early') {
      const front = (await client.api<WaitingView>(`${room}/front`)).envelope.data;
      if (front.drawn) {
        // Once drawn, the waiting page reloads at a random moment (spreading the early group's
        // requests) and joins again, which answers its position.
        await wait(buyer.drawDelayMs);
        view = (await client.api<WaitingView>(room, { method: 'POST', body: {} })).envelope.data;
      } else view = front;
    } else {
      view = (await client.api<WaitingView>(`${room}/front?position=${view.position}`)).envelope.data;
    }
  }
  buyer.polls = polls;
  buyer.position = view.position;
  buyer.admittedAt = clock();
  const page = await client.request(`/en/order/confirm?listingId=${hot.listingId}&quantity=1`);
  // The page answers 409 once the listing is sold out, and says so.
  if (page.status === 409) {
    buyer.outcome = 'sold out';
    return;
  }
  const pass = passOnPage(await page.text());
  if (page.status !== 200 || !pass) throw new Error(`buyer ${buyer.index}: no pass on the order confirmation page (${page.status})`);
  await buy(buyer, hot, clock, pass);
}

/**
 * Quotes, orders one ticket (with the pass, if any) and pays or abandons. Answers false when the
 * order was refused for want of a pass (the session turned high demand since its page).
 */
async function buy(buyer: Buyer, hot: HotListing, clock: Clock, pass: string | null): Promise<boolean> {
  const { client } = buyer;
  const expectedTotal = await quotedTotal(client, hot.listingId);
  if (expectedTotal === null) {
    buyer.outcome = 'sold out';
    return true;
  }
  const sentAt = clock();
  const order = await client.api<{ id: number }>(
    '/api/v1/orders',
    {
      method: 'POST',
      headers: { 'idempotency-key': `sim-${run}-hot-${buyer.index}${pass ? '-passed' : ''}` },
      body: orderBody(hot.listingId, expectedTotal, pass ? { waitingRoomPass: pass } : {}),
    },
    [200, 403, 409, 410, 422],
  );
  if (order.status === 403 && !pass && order.envelope?.errorCode === 'waiting_room_pass_required') return false;
  buyer.orderSentAt = sentAt;
  buyer.orderAnsweredAt = clock();
  if (order.status !== 200) {
    if (order.envelope?.errorCode !== 'tickets_sold_out') {
      throw new Error(`buyer ${buyer.index}: order refused ${order.status} ${JSON.stringify(order.envelope)}`);
    }
    buyer.outcome = 'sold out';
    return true;
  }
  const { id } = order.envelope.data;
  if (buyer.abandons) {
    buyer.outcome = 'abandoned';
    return true;
  }
  const started = await client.api<{ checkoutUrl: string }>(`/api/v1/orders/${id}/payments`, {
    method: 'POST',
    headers: { 'idempotency-key': `sim-${run}-pay-${buyer.index}` },
    body: { method: 'visa' },
  });
  const sandbox = new URL(started.envelope.data.checkoutUrl);
  const decided = await client.request(sandbox.pathname, { method: 'POST', form: 'decision=approve' });
  if (decided.status !== 303) throw new Error(`buyer ${buyer.index}: the sandbox answered ${decided.status}`);
  const paid = (await client.api<{ status: string }>(`/api/v1/orders/${id}`)).envelope.data;
  if (paid.status !== 'pending_ticketing') throw new Error(`buyer ${buyer.index}: order ${id} is ${paid.status} after paying`);
  buyer.paidAt = clock();
  buyer.outcome = 'paid';
  return true;
}

/** The arrivals: early ones at random moments before the opening, late ones one after another after it. */
function arrivals(clients: Client[], random: () => number): Buyer[] {
  const early = Math.round(BUYERS * EARLY_SHARE);
  const late = BUYERS - early;
  return clients.map((client, index) => ({
    index,
    client,
    early: index < early,
    arriveAt:
      index < early ? random() * Math.max(0, OPENS_AFTER_MS - 1000) : OPENS_AFTER_MS + 500 + ((index - early) * LATE_SPREAD_MS) / late,
    abandons: random() < ABANDON_SHARE,
    drawDelayMs: random() * DRAW_SPREAD_MS,
  }));
}

/**
 * The burst second by second from the opening (negative: before it): the unrelated checkout's samples
 * started in that second, how many were slower than the idle p95, the slowest, and the buyers'
 * requests started in it by kind.
 */
function timeline(samples: Sample[], openedAt: number, idleP95Ms: number | null) {
  const bySecond = new Map<number, number[]>();
  for (const { startedAt, ms } of samples) {
    const second = Math.floor((startedAt - openedAt) / 1000);
    bySecond.set(second, [...(bySecond.get(second) ?? []), ms]);
  }
  const all = new Set([...bySecond.keys(), ...traffic.seconds.keys()]);
  return [...all]
    .sort((a, b) => a - b)
    .map((second) => {
      const times = bySecond.get(second) ?? [];
      return {
        second,
        samples: times.length,
        slow: times.filter((ms) => idleP95Ms !== null && ms > idleP95Ms).length,
        slowestMs: times.length ? Math.round(Math.max(...times)) : null,
        started: traffic.seconds.get(second) ?? {},
      };
    });
}

/** Kendall tau of the order the group sent its joins in against the order the room let it through. */
function fairness(group: Buyer[]): number | null {
  const byArrival = [...group].sort((a, b) => a.joinedAt! - b.joinedAt!);
  const tau = kendallTau(byArrival.map((buyer) => buyer.position!));
  return tau === null ? null : Number(tau.toFixed(3));
}

/** The hot listing as D1 has it: its stock and the tickets of its orders that hold or paid. */
async function hotStock(listingId: number): Promise<{ total: number; available: number; held: number; paid: number }> {
  const [listing] = await sql<{ total: number; available: number }>(
    `SELECT quantity_total AS total, quantity_available AS available FROM listings WHERE id = ${listingId}`,
  );
  const statuses = HOLDING_STATUSES.map((status) => `'${status}'`).join(', ');
  const [orders] = await sql<{ held: number; paid: number }>(
    `SELECT COALESCE(SUM(quantity), 0) AS held, COALESCE(SUM(CASE WHEN status <> 'pending_payment' THEN quantity END), 0) AS paid
     FROM orders WHERE listing_id = ${listingId} AND status IN (${statuses})`,
  );
  return { ...listing, ...orders };
}

/**
 * CPU time of the server's threads so far (Linux /proc; null elsewhere): for every thread of the
 * processes under `rootPid`, nanoseconds running and nanoseconds runnable but waiting for a CPU
 * (/proc/<pid>/task/<tid>/schedstat). workerd runs the worker, its Durable Objects and the local D1
 * on one thread, so that thread's share of the wall clock says how busy the server was, and its wait
 * how much other processes on the machine held it back.
 */
function serverThreads(rootPid: number): Map<string, { running: number; waiting: number }> | null {
  try {
    const parents = new Map<number, number>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
      } catch {
        // The process ended between the listing and the read.
      }
    }
    const tree = new Set([rootPid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, parent] of parents) {
        if (tree.has(parent) && !tree.has(pid)) {
          tree.add(pid);
          grew = true;
        }
      }
    }
    const threads = new Map<string, { running: number; waiting: number }>();
    for (const pid of tree) {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const [running, waiting] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
        threads.set(`${pid}/${tid}`, { running, waiting });
      }
    }
    return threads;
  } catch {
    return null;
  }
}

/** A phase's server CPU, as shares of its wall time: all threads' running, and the busiest thread's running and waiting. */
function serverCpu(before: ReturnType<typeof serverThreads>, after: ReturnType<typeof serverThreads>, wallMs: number): ServerCpu | null {
  if (!before || !after) return null;
  let total = 0;
  let busiest = { running: 0, waiting: 0 };
  for (const [thread, end] of after) {
    const start = before.get(thread) ?? { running: 0, waiting: 0 };
    const used = { running: end.running - start.running, waiting: end.waiting - start.waiting };
    total += used.running;
    if (used.running > busiest.running) busiest = used;
  }
  const share = (ns: number) => Number((ns / 1e6 / wallMs).toFixed(2));
  return { allThreads: share(total), busiestThread: share(busiest.running), busiestThreadWaiting: share(busiest.waiting) };
}

/** Runs `work`, measuring the server's CPU over it. */
async function withServerCpu<Result>(serverPid: number, work: () => Promise<Result>): Promise<{ result: Result; cpu: ServerCpu | null }> {
  const before = serverThreads(serverPid);
  const started = performance.now();
  const result = await work();
  return { result, cpu: serverCpu(before, serverThreads(serverPid), performance.now() - started) };
}

async function simulate(serverPid: number): Promise<SimResults> {
  const unrelated = await unrelatedListing();
  const hot = await hotListing(unrelated.activityId);
  // A plain session has no room to set: the room it opens when it switches runs at the app's rate.
  if (AUTO_SWITCH_PER_MINUTE === null) {
    await anyone.api(`/api/v1/dev/waiting-rooms/${hot.sessionId}`, {
      method: 'POST',
      body: { admissionsPerMinute: ADMISSIONS_PER_MINUTE },
    });
  }

  const clients = Array.from({ length: BUYERS + UNRELATED_BUYERS }, (_, i) => new Client(`198.19.${i >> 8}.${i & 255}`));
  const signUpStarted = performance.now();
  await inTurns(
    clients.map((client, i): [Client, number] => [client, i]),
    SIGN_UP_CONCURRENCY,
    ([client, i]) => signUp(client, `sim-${run}-${i}@example.com`),
  );
  const signUpSeconds = Number(((performance.now() - signUpStarted) / 1000).toFixed(1));
  console.log(`${clients.length} accounts signed up in ${signUpSeconds} s`);

  const unrelatedBuyers = clients.slice(BUYERS);
  const unrelatedTotal = await quotedTotal(unrelatedBuyers[0], unrelated.id);
  if (unrelatedTotal === null) throw new Error(`The unrelated show's listing ${unrelated.id} is sold out.`);
  const checkout = unrelatedCheckout(unrelatedBuyers, unrelated.id, unrelatedTotal, seeded(SEED + 1));
  const idleBefore = await withServerCpu(serverPid, () => checkout.idle(IDLE_WARM_UP));
  console.log(`unrelated checkout idle: ${JSON.stringify(spread(idleBefore.result.map((sample) => sample.ms)))}`);

  const buyers = arrivals(clients.slice(0, BUYERS), seeded(SEED));
  const burstThreads = serverThreads(serverPid);
  const burstStart = performance.now();
  traffic.since = burstStart + OPENS_AFTER_MS;
  const clock = () => performance.now() - burstStart;
  const opensAt = Date.now() + OPENS_AFTER_MS;
  await hot.openSale(opensAt);
  const during = checkout.during();
  let minimumStock = TICKETS;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      minimumStock = Math.min(minimumStock, (await hotStock(hot.listingId)).available);
      await wait(STOCK_SAMPLE_MS);
    }
  })();
  // The room's progress as anyone can read it: where the last buyer's position stands.
  const admitted: { at: number; through: number }[] = [];
  const watching = (async () => {
    while (sampling) {
      const front = await anyone.api<WaitingView>(`/api/v1/waiting-rooms/${hot.sessionId}/front?position=${BUYERS}`, {}, [200, 404]);
      // A plain session has no room until it turns high demand.
      if (front.status === 404) {
        await wait(FRONT_SAMPLE_MS);
        continue;
      }
      const view = front.envelope.data;
      admitted.push({ at: clock(), through: view.state === 'admitted' ? BUYERS : BUYERS - view.place });
      if (view.state === 'admitted') return;
      await wait(FRONT_SAMPLE_MS);
    }
  })();
  const failures: string[] = [];
  await Promise.all(
    buyers.map(async (buyer) => {
      try {
        await visit(buyer, hot, clock);
      } catch (error) {
        failures.push((error as Error).message);
        buyer.outcome = 'error';
      }
    }),
  );
  const burstMs = clock();
  const duringTimes = await during.stop();
  const burstCpu = serverCpu(burstThreads, serverThreads(serverPid), clock());
  sampling = false;
  await Promise.all([sampler, watching]);
  if (failures.length) throw new Error(`${failures.length} buyers failed; the first: ${failures[0]}`);
  await wait(SETTLE_MS);
  const idleAfter = await withServerCpu(serverPid, () => checkout.idle(0));
  console.log(`unrelated checkout idle after the burst: ${JSON.stringify(spread(idleAfter.result.map((sample) => sample.ms)))}`);

  const stock = await hotStock(hot.listingId);
  minimumStock = Math.min(minimumStock, stock.available);
  const count = (outcome: Outcome) => buyers.filter((buyer) => buyer.outcome === outcome).length;
  const held = count('paid') + count('abandoned');
  const firstAdmitted = admitted.find((sample) => sample.through > 0);
  // Where the line ended: everyone (an operator's on-sale), or those who queued once the session switched.
  const allAdmitted = admitted.find((sample) => sample.through === admitted.at(-1)?.through);
  if (!firstAdmitted || !allAdmitted) throw new Error('The waiting room let no buyer through.');
  const queued = buyers.filter((buyer) => buyer.queued);
  const holds = queued.filter((buyer) => buyer.outcome === 'paid' || buyer.outcome === 'abandoned');
  const holdAnswers = holds.map((buyer) => buyer.orderAnsweredAt!).sort((a, b) => a - b);
  const idle = spread([...idleBefore.result, ...idleAfter.result].map((sample) => sample.ms));
  const busy = spread(duringTimes.map((sample) => sample.ms));
  const seconds = timeline(duringTimes, burstStart + OPENS_AFTER_MS, idle.p95Ms);
  console.log(
    `second from the opening: probe samples, slower than idle p95, slowest ms; requests started by kind\n${seconds.map((s) => `${s.second}: ${s.samples}, ${s.slow}, ${s.slowestMs}; ${JSON.stringify(s.started)}`).join('\n')}`,
  );
  const results: SimResults = {
    signUpSeconds,
    burstSeconds: Number((burstMs / 1000).toFixed(1)),
    admission: {
      configuredPerSecond: Number((ADMISSIONS_PER_MINUTE / 60).toFixed(2)),
      achievedPerSecond: Number(((allAdmitted.through - firstAdmitted.through) / ((allAdmitted.at - firstAdmitted.at) / 1000)).toFixed(2)),
      pollsPerBuyer: Number((queued.reduce((sum, buyer) => sum + (buyer.polls ?? 0), 0) / queued.length).toFixed(1)),
    },
    fairness: { lateTau: fairness(queued.filter((b) => !b.early)), earlyTau: fairness(queued.filter((b) => b.early)) },
    outcomes: {
      paid: count('paid'),
      abandoned: count('abandoned'),
      soldOut: count('sold out'),
      toldInLine: buyers.filter((buyer) => buyer.toldInLine).length,
    },
    admissionToPaid: spread(queued.filter((b) => b.outcome === 'paid').map((b) => b.paidAt! - b.admittedAt!)),
    holdAnswer: spread(queued.filter((b) => b.orderAnsweredAt !== undefined).map((b) => b.orderAnsweredAt! - b.orderSentAt!)),
    holdsPerSecond:
      holdAnswers.length > 1
        ? Number(((holdAnswers.length - 1) / ((holdAnswers[holdAnswers.length - 1] - holdAnswers[0]) / 1000)).toFixed(2))
        : null,
    stock: { ...stock, minimumSeen: minimumStock, answeredHolds: held },
    unrelatedCheckout: {
      idleBefore: spread(idleBefore.result.map((sample) => sample.ms)),
      idleAfter: spread(idleAfter.result.map((sample) => sample.ms)),
      idle,
      duringBurst: busy,
      p50Ratio: Number(((busy.p50Ms ?? Number.NaN) / (idle.p50Ms ?? Number.NaN)).toFixed(2)),
      p95Ratio: Number(((busy.p95Ms ?? Number.NaN) / (idle.p95Ms ?? Number.NaN)).toFixed(2)),
    },
    serverCpu: { idleBefore: idleBefore.cpu, duringBurst: burstCpu, idleAfter: idleAfter.cpu },
    burstTimeline: seconds,
    soldExactly: false,
  };
  if (AUTO_SWITCH_PER_MINUTE !== null) {
    const [session] = await sql<{ highDemand: number }>(
      `SELECT high_demand AS highDemand FROM activity_sessions WHERE id = ${hot.sessionId}`,
    );
    const direct = buyers.filter((buyer) => !buyer.queued);
    results.autoSwitch = {
      ordersPerMinute: AUTO_SWITCH_PER_MINUTE,
      switched: session.highDemand === 1,
      directOrders: direct.filter((buyer) => buyer.orderAnsweredAt !== undefined && buyer.outcome !== 'sold out').length,
      queued: queued.length,
    };
    if (!results.autoSwitch.switched || queued.length === 0)
      throw new Error(`The session did not switch: ${JSON.stringify(results.autoSwitch)}`);
  }
  const oversold = stock.held > TICKETS || minimumStock < 0 || stock.available + stock.held !== stock.total || stock.held !== held;
  results.soldExactly = stock.held === Math.min(TICKETS, BUYERS) && !oversold;
  if (oversold) throw new Error(`Oversold or miscounted: ${JSON.stringify(results.stock)} for ${TICKETS} tickets`);
  return results;
}

function table(report: SimReport): string {
  const { machine: m, admission: a, fairness: f, unrelatedCheckout: u, stock: s, serverCpu: cpu } = report;
  const ms = ({ p50Ms, p95Ms }: Spread) => `${p50Ms} / ${p95Ms}`;
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  const threadUse = (phase: ServerCpu | null) =>
    phase ? `${percent(phase.busiestThread)} + ${percent(phase.busiestThreadWaiting)}` : 'n/a';
  const lines = [
    `Simulated ${report.date.slice(0, 10)} on ${m.cpus} CPUs (${m.model}), load average ${m.loadAverage.join(', ')} at start and ${report.loadAverageAtEnd.join(', ')} at the end (a shared machine); ${report.buyers} buyers (${report.earlyBuyers} before the opening), ${report.tickets} tickets, ${Math.round(report.abandonShare * 100)}% abandon; burst ${report.burstSeconds} s; the unrelated show's checkout sampled at ${1000 / UNRELATED_EVERY_MS} orders/s (open loop) before, during and after it.`,
    '',
    '| Measure | Value |',
    '| --- | ---: |',
    `| Admissions/s, achieved (configured) | ${a.achievedPerSecond} (${a.configuredPerSecond}) |`,
    `| Kendall tau, arrival vs admission: late (expect 1) | ${f.lateTau} |`,
    `| Kendall tau, arrival vs admission: early (expect ~0) | ${f.earlyTau} |`,
    `| Admission to paid order, p50 / p95 ms | ${ms(report.admissionToPaid)} |`,
    `| Hold answer (order through the object), p50 / p95 ms | ${ms(report.holdAnswer)} |`,
    `| Holds/s through the object | ${report.holdsPerSecond} |`,
    `| Paid / abandoned / sold out (told so in line) | ${report.outcomes.paid} / ${report.outcomes.abandoned} / ${report.outcomes.soldOut} (${report.outcomes.toldInLine}) |`,
    `| D1 at the end: held or paid / stock left / lowest stock seen | ${s.held} / ${s.available} / ${s.minimumSeen} |`,
    `| Unrelated checkout idle before / after the burst, p50 / p95 ms | ${ms(u.idleBefore)}; ${ms(u.idleAfter)} |`,
    `| Unrelated checkout idle (both), p50 / p95 ms | ${ms(u.idle)} |`,
    `| Unrelated checkout during the burst, p50 / p95 ms | ${ms(u.duringBurst)} |`,
    `| Ratio during / idle, p50 / p95 (target <= 1.5) | ${u.p50Ratio} / ${u.p95Ratio} |`,
    `| Server's busiest thread, idle before / burst / idle after: running + waiting for a CPU | ${threadUse(cpu.idleBefore)} / ${threadUse(cpu.duringBurst)} / ${threadUse(cpu.idleAfter)} |`,
  ];
  if (report.autoSwitch) {
    const { ordersPerMinute, directOrders, queued } = report.autoSwitch;
    lines.push(
      `| Switched by itself at ${ordersPerMinute} orders/min: orders before it (through D1) / buyers queued after it | ${directOrders} / ${queued} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function main() {
  const settings = {
    date: new Date().toISOString(),
    machine: { ...machine(), loadAverage: os.loadavg().map((load) => Number(load.toFixed(2))) },
    buyers: BUYERS,
    earlyBuyers: Math.round(BUYERS * EARLY_SHARE),
    tickets: TICKETS,
    abandonShare: ABANDON_SHARE,
    admissionsPerMinute: ADMISSIONS_PER_MINUTE,
    opensAfterMs: OPENS_AFTER_MS,
    lateSpreadMs: LATE_SPREAD_MS,
    pollMaxMs: POLL_MAX_MS,
    drawSpreadMs: DRAW_SPREAD_MS,
    seed: SEED,
    autoSwitchPerMinute: AUTO_SWITCH_PER_MINUTE,
  };
  rmSync(persistTo, { recursive: true, force: true });
  migrate(persistTo);
  seedIfEmpty(persistTo);
  if (!process.env.SIM_SKIP_BUILD) build();
  const server = await startSimServer();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The simulation did not finish within ${TIMEOUT_MS / 1000} s`)), TIMEOUT_MS);
  });
  let results: SimResults;
  try {
    results = await Promise.race([simulate(server.pid), timeout]);
  } finally {
    clearTimeout(timer);
    await server.stop();
  }
  const report: SimReport = { ...settings, ...results, loadAverageAtEnd: os.loadavg().map((load) => Number(load.toFixed(2))) };
  const markdown = table(report);
  mkdirSync(resultsDir, { recursive: true });
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(path.join(resultsDir, `load-sim-${report.date.replace(/[:.]/g, '-')}.json`), json);
  writeFileSync(path.join(resultsDir, 'load-sim-latest.json'), json);
  writeFileSync(path.join(resultsDir, 'load-sim-latest.md'), markdown);
  console.log(`\n${markdown}\nWritten to ${path.relative(ROOT, resultsDir)}/load-sim-latest.json and load-sim-latest.md`);
}

try {
  await main();
  process.exit(0);
} catch (error) {
  console.error(`\nThe simulation failed: ${(error as Error).message}`);
  process.exit(1);
}
