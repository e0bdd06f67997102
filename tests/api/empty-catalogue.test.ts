/**
 * A production database as deployed: the migrations (with the reference data) and no demo seed. The API's
 * reads answer 200 with empty lists, what is not there 404, and no route of the table a 500 for want of
 * the demo catalogue.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/lib/api/app.ts';
import { type Answer, signedInClient, TestClient } from './auth-client.ts';

type Data = Record<string, unknown> & unknown[];
/** A read and the lists of its answer that must be empty (the answer itself when it is the list). */
type Read = [path: string, empties: (data: Data) => unknown[]];

const whole = (data: Data) => [data];
const none = () => [];

const CATALOGUE: Read[] = [
  ['/api/', (data) => [data.banners, data.rareActivities, data.discountActivities]],
  ['/api/?ignoreCityId=true', (data) => [data.banners, data.rareActivities, data.discountActivities]],
  ['/api/v1/keyWord/hotKeyWord', whole],
  ['/api/v1/popBox/list?sceneType=HOME', whole],
  ['/api/v1/calendar/hongkong-all/latest', (data) => [data.days, data.activities]],
  ['/api/v1/calendar/taipei-concerts/latest', (data) => [data.days, data.activities]],
  ['/api/v1/list/all', (data) => [data.result]],
  ['/api/v1/list/concerts?sort=hot', (data) => [data.result]],
  ['/api/v1/list/all?city=all&sort=price', (data) => [data.result]],
  ['/api/v1/list/s_jay?sceneType=searchV2', (data) => [data.result]],
  ['/api/v1/list/s_%E6%BC%94%E5%94%B1%E6%9C%83?sceneType=searchV2&ignoreCityId=true', (data) => [data.result]],
  ['/api/v1/activities/suggest?input=jay', whole],
  ['/api/v1/lotteries', whole],
  ['/api/v1/cities/userCity', none],
  ['/api/v1/cities/hotCity', none],
  ['/api/v1/cities/active/group', none],
  ['/api/v1/header/choices', none],
  ['/api/v1/language/list', none],
  ['/api/v1/currency/list', none],
];

const ACCOUNT: Read[] = [
  ['/api/v1/user/profile', none],
  ['/api/v1/addresses', whole],
  ['/api/v1/attendees', whole],
  ['/api/v1/orders?tab=all', (data) => [data.items]],
  ['/api/v1/coupon/list?tab=usable', (data) => [data.items]],
  ['/api/v1/popBox/inviteCoupon/list', whole],
  ['/api/v1/invitation', (data) => [data.friends]],
  ['/api/v1/transfer-listings', whole],
  ['/api/v1/transfer-payouts', whole],
  ['/api/v1/waitlist', whole],
  ['/api/v1/attendee-changes', whole],
  ['/api/v1/gate/sessions', whole],
];

async function expectEmpty(client: TestClient, [path, empties]: Read) {
  const answer: Answer<Data> = await client.call<Data>(path);
  expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(200);
  for (const list of empties(answer.body.data)) expect(list, path).toEqual([]);
}

describe('an empty catalogue', () => {
  it('has the reference data but no demo catalogue', async () => {
    const count = (table: string) => env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table}`).first<{ n: number }>();
    expect((await count('cities'))?.n).toBeGreaterThan(0);
    expect((await count('activities'))?.n).toBe(0);
    expect((await count('users'))?.n).toBe(0);
  });

  it('answers every catalogue read with empty lists', async () => {
    const client = new TestClient();
    for (const read of CATALOGUE) await expectEmpty(client, read);
  });

  it('answers a new account’s reads with empty lists', async () => {
    const client = await signedInClient('empty-catalogue');
    for (const read of [...CATALOGUE, ...ACCOUNT]) await expectEmpty(client, read);
  });

  it('answers an operator’s reads with empty lists, and no read of the route table with a 500', async () => {
    const client = await signedInClient('empty-catalogue-operator');
    const { id } = (await env.DB.prepare('SELECT MAX(id) AS id FROM users').first<{ id: number }>())!;
    await env.DB.prepare("INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, 'operator', 0)").bind(id).run();
    await expectEmpty(client, ['/api/v1/operator/messages/dead', whole]);
    // Every read, the console's included, with each path parameter 1 and no query: refused or empty, never a 500.
    const reads = api.routes
      .filter((route) => route.method === 'GET' && route.path.startsWith('/api/') && !route.path.startsWith('/api/api/'))
      .map((route) => route.path.replace(/:(\w+)(?:\{[^}]*\})?/g, '1'))
      .filter((path) => !path.endsWith('/logout'));
    expect(reads.length).toBeGreaterThan(40);
    for (const path of new Set(reads)) {
      const answer = await client.call(path);
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBeLessThan(500);
    }
  });

  it('answers what is not there with 404, not 500', async () => {
    const client = new TestClient();
    for (const path of [
      '/api/activity/1000',
      '/api/v1/ticketCategories?eventId=1000',
      '/api/v1/lotteries/1',
      '/api/v1/list/no-such-category',
    ]) {
      const answer = await client.call(path);
      expect(answer.status, `${path}: ${answer.text.slice(0, 200)}`).toBe(404);
    }
  });
});
