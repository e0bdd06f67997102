/**
 * How long a buyer waits for a message, on a local server that is already running: a login code
 * (sent inside the request) against an order's "placed" message (outbox, queue, consumer), 20 of
 * each one at a time, p50 and p95 from asking until the dev outbox holds it. This is the comparison
 * behind keeping login codes out of the queue (docs/messages.md); `npm run bench` takes the same
 * figures on its own server. The server is one scripts/e2e-server.ts started on the port (its
 * database is where the listing's stock is topped up):
 *
 *   E2E_PORT=8871 node scripts/e2e-server.ts &
 *   BENCH_PORT=8871 node scripts/bench/messages.ts
 *
 * Sign-up codes are rate limited per address and client: wait a minute between two runs.
 */
import os from 'node:os';
import { buyersWithMessageTimes, prepareCheckoutListing } from './checkout.ts';
import { e2eStateDir } from '../local-db.ts';

const port = Number(process.env.BENCH_PORT);
if (!port) throw new Error('Set BENCH_PORT to the port of a running scripts/e2e-server.ts.');
const baseUrl = `http://127.0.0.1:${port}`;
const loadAtStart = os.loadavg()[0].toFixed(2);
const listing = prepareCheckoutListing(e2eStateDir(port));
const { messages } = await buyersWithMessageTimes(baseUrl, listing.listingId, `messages-${Date.now().toString(36)}`);
const { loginCode, orderPlaced } = messages;
console.log(
  `Login code: p50 ${loginCode.p50Ms} ms, p95 ${loginCode.p95Ms} ms (${loginCode.samples}). ` +
    `Order placed: p50 ${orderPlaced.p50Ms} ms, p95 ${orderPlaced.p95Ms} ms (${orderPlaced.samples}). ` +
    `Load average ${loadAtStart} at start, ${os.loadavg()[0].toFixed(2)} at the end.`,
);
