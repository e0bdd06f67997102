/**
 * A local double of ExchangeRate-API's open access endpoint, as its documentation describes it
 * (https://www.exchangerate-api.com/docs/free): `GET /v6/latest/{CODE}` answers
 * `{ result: 'success', provider, documentation, terms_of_use, time_last_update_unix, time_last_update_utc,
 * time_next_update_unix, time_next_update_utc, time_eol_unix, base_code, rates }` with every rate per
 * one unit of the base, and an unknown code `{ result: 'error', 'error-type': 'unsupported-code' }`.
 * Its rates start as the demo seed's (per HKD) and tests steer it: `PUT /_double/rates { CODE: rate }`
 * changes quotes (null removes one), `PUT /_double/failure { failure }` makes it fail the next
 * requests ('server_error': HTTP 500, 'malformed': not JSON, 'error_result': a documented error
 * answer, null: answer again), `POST /_double/reset` goes back to the start. The tests
 * (FX_RATES_API_URL) point the app at it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import currencies from '../../src/lib/db/seed-data/currencies.json' with { type: 'json' };

export type RatesFailure = 'server_error' | 'malformed' | 'error_result' | null;

export interface ExchangeRateDouble {
  url: string;
  close(): Promise<void>;
}

/** The seed's rates per HKD, as the provider would give them. */
const SEED_RATES = Object.fromEntries(currencies.map(({ code, perHkdMicros }) => [code, perHkdMicros / 1_000_000]));
/** Besides ours, a few of the many other currencies the provider quotes. */
const OTHER_RATES = { EUR: 0.1098, GBP: 0.0951, JPY: 19.42 };

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

export async function startExchangeRateDouble(port = 0): Promise<ExchangeRateDouble> {
  let rates: Record<string, number> = { ...SEED_RATES, ...OTHER_RATES };
  let failure: RatesFailure = null;

  function latest(base: string, now: number): { status: number; body: unknown } {
    const perHkd = rates[base];
    if (perHkd === undefined) return { status: 404, body: { result: 'error', 'error-type': 'unsupported-code' } };
    const day = Math.floor(now / 86_400_000) * 86_400;
    return {
      status: 200,
      body: {
        result: 'success',
        provider: 'https://www.exchangerate-api.com',
        documentation: 'https://www.exchangerate-api.com/docs/free',
        terms_of_use: 'https://www.exchangerate-api.com/terms',
        time_last_update_unix: day,
        time_last_update_utc: new Date(day * 1000).toUTCString(),
        time_next_update_unix: day + 86_400,
        time_next_update_utc: new Date((day + 86_400) * 1000).toUTCString(),
        time_eol_unix: 0,
        base_code: base,
        rates: Object.fromEntries(Object.entries(rates).map(([code, rate]) => [code, Number((rate / perHkd).toPrecision(8))])),
      },
    };
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://double');
    const json = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const latestPath = /^\/v6\/latest\/([A-Za-z]+)$/.exec(url.pathname);
    if (request.method === 'GET' && latestPath) {
      if (failure === 'server_error') return json(500, { error: 'internal' });
      if (failure === 'malformed') {
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('<html><body>Service unavailable</body></html>');
      }
      if (failure === 'error_result') return json(200, { result: 'error', 'error-type': 'malformed-request' });
      const answer = latest(latestPath[1].toUpperCase(), Date.now());
      return json(answer.status, answer.body);
    }
    if (request.method === 'PUT' && url.pathname === '/_double/rates') {
      const changes = JSON.parse(await readBody(request)) as Record<string, number | null>;
      for (const [code, rate] of Object.entries(changes)) {
        if (rate === null) delete rates[code];
        else rates[code] = rate;
      }
      return json(200, { rates });
    }
    if (request.method === 'PUT' && url.pathname === '/_double/failure') {
      ({ failure } = JSON.parse(await readBody(request)) as { failure: RatesFailure });
      return json(200, { failure });
    }
    if (request.method === 'POST' && url.pathname === '/_double/reset') {
      rates = { ...SEED_RATES, ...OTHER_RATES };
      failure = null;
      return json(200, { rates });
    }
    json(404, { result: 'error', 'error-type': 'malformed-request' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
