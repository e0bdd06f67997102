/**
 * The local-only routes of a local build run as a deployed copy (APP_ENV=production), asked by any
 * spelling of their path: percent-encoded, double-encoded, in capitals, with a trailing slash, under the
 * /api/api alias. Each answers 404 and runs nothing. (A production build has none of these routes at
 * all: scripts/quality/production-check.ts checks its bundle and asks it the same.)
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/lib/api/app.ts';

const SQL_SPELLINGS = [
  '/api/v1/%64ev/sql',
  '/api/v1/d%65v/sql',
  '/api/v1/%64%65%76/%73%71%6C',
  '/api/v1/dev/sql/',
  '/api/api/v1/%64ev/sql',
  '/api/%61pi/v1/dev/sql',
  '/api/v1/%2564ev/sql',
  '/api/v1/DEV/sql',
];

const OTHER_SPELLINGS = [
  ['GET', '/api/v1/d%65v/outbox'],
  ['GET', '/api/api/v1/%64ev/outbox?target=someone@example.com'],
  ['POST', '/api/v1/%64ev/waiting-rooms/1', { admitNext: 1 }],
  ['POST', '/api/v1/%64ev/orders/1/end-payment-time', {}],
  ['POST', '/api/v1/%64ev/fixtures/make-staff', { userId: 1, role: 'operator' }],
  ['POST', '/api/api/v1/dev/fixtures/set-listing-stock/', { listingId: 1, quantityAvailable: 0 }],
  ['GET', '/api/%6Fpenapi.json'],
  ['GET', '/api/openapi.json/'],
  ['GET', '/api/d%6Fcs'],
  ['GET', '/api/docs/'],
  ['POST', '/api/v1/payments/webhooks/%73andbox', {}],
  ['POST', '/api/api/v1/payments/webhooks/s%61ndbox', {}],
] as const;

async function call(path: string, appEnv: 'local' | 'production', method = 'GET', body?: unknown): Promise<Response> {
  const init = body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
  return api.fetch(new Request(`http://localhost${path}`, init), { ...env, APP_ENV: appEnv });
}

/** A statement that leaves a mark naming the spelling it was sent to. */
const markingStatement = (path: string) => ({
  sql: `INSERT INTO hot_keywords (locale, keyword, sort) VALUES ('en', 'respelled ${path}', 999)`,
});

async function marks(): Promise<unknown[]> {
  const read = await call('/api/v1/dev/sql', 'local', 'POST', { sql: "SELECT keyword FROM hot_keywords WHERE keyword LIKE 'respelled %'" });
  return ((await read.json()) as { data: unknown[] }).data;
}

describe('the local-only routes of a local build run as deployed', () => {
  it('answer 404 to every spelling of the SQL route and run no statement', async () => {
    for (const path of SQL_SPELLINGS) {
      const answer = await call(path, 'production', 'POST', markingStatement(path));
      expect(answer.status, path).toBe(404);
      expect(await answer.json(), path).toMatchObject({ code: 404, errorCode: 'not_found' });
    }
    expect(await marks()).toEqual([]);
  });

  it('answer 404 to every spelling of the outbox, the waiting-room door, the payment clock, the fixtures, the API document and the sandbox webhook', async () => {
    for (const [method, path, body] of OTHER_SPELLINGS) {
      const answer = await call(path, 'production', method, body);
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(await answer.json(), `${method} ${path}`).toMatchObject({ code: 404, errorCode: 'not_found' });
    }
  });

  it('are the routes those spellings reach when run as local', async () => {
    const path = '/api/v1/%64ev/sql';
    const answer = await call(path, 'local', 'POST', markingStatement(path));
    expect(answer.status).toBe(200);
    expect(await marks()).toEqual([{ keyword: `respelled ${path}` }]);
    await call('/api/v1/dev/sql', 'local', 'POST', { sql: "DELETE FROM hot_keywords WHERE keyword LIKE 'respelled %'" });
  });
});
