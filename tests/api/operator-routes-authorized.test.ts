/**
 * Every operator route, as the API's own route table lists it (so routes added later are walked
 * too, without editing this test), refuses a visitor (401) and a signed-in buyer (403 not_staff).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../src/lib/api/app.ts';
import { signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

/** Each operator route once, under the canonical /api base, its path parameters filled with a plausible id. */
const operatorRoutes = [
  ...new Map(
    api.routes
      .filter((route) => route.method !== 'ALL' && route.path.startsWith('/api/v1/') && route.path.includes('/v1/operator/'))
      .map((route) => [`${route.method} ${route.path}`, { method: route.method, path: route.path.replace(/:\w+(\{[^}]*\})?/g, '1') }]),
  ).values(),
];

let buyer: TestClient;

beforeAll(async () => {
  await seed();
  buyer = await signedInClient('route-walk-buyer');
});

describe('operator routes', () => {
  it('are found in the route table', () => {
    expect(operatorRoutes.length).toBeGreaterThanOrEqual(18);
    expect(operatorRoutes).toContainEqual({ method: 'GET', path: '/api/v1/operator/audit' });
  });

  it('answer a visitor 401 and a buyer 403 not_staff, every one', async () => {
    for (const { method, path } of operatorRoutes) {
      const body = method === 'GET' ? undefined : {};
      const visitor = await new TestClient().call(path, { method, body });
      expect(visitor.status, `${method} ${path} as a visitor`).toBe(401);
      const signedIn = await buyer.call(path, { method, body });
      expect(signedIn.status, `${method} ${path} as a buyer`).toBe(403);
      expect(signedIn.body.errorCode, `${method} ${path} as a buyer`).toBe('not_staff');
    }
  });
});
