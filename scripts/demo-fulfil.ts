/**
 * `npm run demo:fulfil -- <orderNo>`: plays the seller of a paid demo order against the running
 * `npm start` server and issues its e-tickets, so the whole path (buy, pay in the sandbox, fulfil,
 * voucher) can be walked locally.
 *
 * The seller is found in the server's local database (its local-only `/api/v1/dev/sql`), then
 * everything goes through the API as a seller would: sign in with the demo sellers' password
 * (DEMO_SELLER_PASSWORD of the seed), then `POST /api/v1/seller/orders/{id}/fulfil { method: 'e_ticket' }`.
 * `PORT` picks the server's port as it does for `npm start`.
 */
import { pathToFileURL } from 'node:url';
import { DEMO_SELLER_PASSWORD } from '../src/lib/db/seed.ts';

/** Order numbers are digits; checked before one goes into the SQL text of the query. */
const ORDER_NO = /^\d{6,40}$/;

/** A failure the command explains to the user (no stack trace). */
export class DemoError extends Error {}

/** The API's envelope around every answer. */
interface Envelope<Data> {
  code: number;
  message?: string;
  data: Data;
}

/**
 * Rows of one SQL statement against the database of the local server at `baseUrl`, through its
 * local-only `POST /api/v1/dev/sql`: a second process opening the database file beside the server
 * would make the server's own writes fail (workerd's SQLite waits for no lock).
 */
export async function queryLocalDb<Row = Record<string, unknown>>(baseUrl: string, sql: string): Promise<Row[]> {
  let response: Response;
  try {
    response = await fetch(new URL('/api/v1/dev/sql', baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sql }),
    });
  } catch {
    throw new DemoError(`No server answers at ${baseUrl}. Start it with \`npm start\` first.`);
  }
  const body = (await response.json().catch(() => null)) as Envelope<Row[]> | null;
  if (!response.ok || !body)
    throw new DemoError(`The local database refused the statement (${response.status}): ${body?.message ?? 'no answer'}\n${sql}`);
  return body.data;
}

/** A minimal browser: keeps the session cookies and unwraps the API envelope. */
class ApiSession {
  readonly baseUrl: string;
  readonly cookies = new Map<string, string>();

  constructor(baseUrl: string) {
    this.baseUrl = baseUrl;
  }

  async call<Data>(method: string, pathname: string, body?: unknown): Promise<Data> {
    const headers: Record<string, string> = { language: 'en' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let response: Response;
    try {
      response = await fetch(new URL(pathname, this.baseUrl), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new DemoError(`No server answers at ${this.baseUrl}. Start it with \`npm start\` first.`);
    }
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const separator = pair.indexOf('=');
      this.cookies.set(pair.slice(0, separator).trim(), pair.slice(separator + 1).trim());
    }
    const envelope = (await response.json().catch(() => null)) as Envelope<Data> | null;
    if (!response.ok || !envelope)
      throw new DemoError(`${method} ${pathname} failed (${response.status}): ${envelope?.message ?? response.statusText}`);
    return envelope.data;
  }
}

/**
 * Signs in as the seller of order `orderNo` and issues its e-tickets. Answers the seller's view of
 * the order (status pending_receipt, its tickets).
 */
/** The seller's view of an order once fulfilled. */
interface FulfilledOrder {
  status: string;
  tickets: { ticketNo: string }[];
}

export async function fulfilAsSeller({
  baseUrl,
  orderNo,
  log = () => {},
}: {
  baseUrl: string;
  orderNo: string;
  log?: (line: string) => void;
}): Promise<FulfilledOrder> {
  if (!ORDER_NO.test(orderNo)) throw new DemoError(`"${orderNo}" is not an order number (the digits shown as Order No.).`);
  const [order] = await queryLocalDb<{ id: number; status: string; email: string | null }>(
    baseUrl,
    `SELECT o.id, o.status, u.email FROM orders o JOIN users u ON u.id = o.seller_id WHERE o.order_no = '${orderNo}'`,
  );
  if (!order) throw new DemoError(`There is no order ${orderNo} in the database of ${baseUrl}.`);
  if (order.status !== 'pending_ticketing') {
    throw new DemoError(
      `Order ${orderNo} is ${order.status}: only a paid order waiting for its tickets (pending_ticketing) can be fulfilled.`,
    );
  }
  if (!order.email) throw new DemoError(`The seller of order ${orderNo} has no email address to sign in with.`);

  const seller = new ApiSession(baseUrl);
  await seller.call('POST', '/api/v1/user/mail/login', { email: order.email, loginType: 'password', password: DEMO_SELLER_PASSWORD });
  log(`Signed in as the seller, ${order.email}.`);

  const fulfilled = await seller.call<FulfilledOrder>('POST', `/api/v1/seller/orders/${order.id}/fulfil`, { method: 'e_ticket' });
  log(`Order ${orderNo} is ticketed (${fulfilled.status}): ${fulfilled.tickets.map((ticket) => ticket.ticketNo).join(', ')}.`);
  log('The buyer now sees the tickets in My Orders; the order detail links to the voucher with the entry QR codes.');
  return fulfilled;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const orderNo = process.argv[2];
  if (!orderNo) {
    console.error('Usage: npm run demo:fulfil -- <orderNo>   (with `npm start` running)');
    process.exit(2);
  }
  const port = Number(process.env.PORT) || 4321;
  try {
    await fulfilAsSeller({
      baseUrl: `http://localhost:${port}`,
      orderNo,
      log: console.log,
    });
  } catch (error) {
    if (!(error instanceof DemoError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
