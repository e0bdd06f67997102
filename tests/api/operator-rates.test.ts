/**
 * The exchange rates' refresh against the local double of the rates provider (tests/doubles/
 * exchange-rate-api.ts), and the console's pins: a refresh that succeeds writes the provider's
 * rates; one that fails (HTTP 500, not JSON, an error answer, a quote missing or far off) keeps the
 * old ones; a pinned rate survives refreshes until unpinned; the hourly job asks only once the rates
 * are a day old; every change by an operator is audited; others are refused.
 */
import { env } from 'cloudflare:workers';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FX_RATES_REFRESH_AFTER_MS } from '../../src/lib/config/rates.ts';
import { database } from '../../src/lib/data/client.ts';
import type { RateView } from '../../src/lib/services/rates/rates.ts';
import { ratesProvider, type RefreshOutcome, refreshRatesIfDue } from '../../src/lib/services/rates/refresh.ts';
import { signedInClient, type TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

let operator: TestClient;
let editor: TestClient;
let buyer: TestClient;

async function steer(path: string, method: string, body?: unknown): Promise<void> {
  const answer = await fetch(new URL(path, env.FX_RATES_API_URL), {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(answer.status).toBe(200);
}

const providerRates = (rates: Record<string, number | null>) => steer('/_double/rates', 'PUT', rates);
const providerFails = (failure: 'server_error' | 'malformed' | 'error_result' | null) => steer('/_double/failure', 'PUT', { failure });

async function stored(quote: string) {
  return env.DB.prepare(
    'SELECT per_hkd_micros AS micros, source, fetched_at AS fetchedAt, pinned_at AS pinnedAt FROM fx_rates WHERE quote = ?',
  )
    .bind(quote)
    .first<{ micros: number; source: string; fetchedAt: number | null; pinnedAt: number | null }>();
}

async function allRates(): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare('SELECT quote, per_hkd_micros AS micros FROM fx_rates').all<{ quote: string; micros: number }>();
  return Object.fromEntries(results.map((row) => [row.quote, row.micros]));
}

async function auditCount(action: string): Promise<number> {
  return (await env.DB.prepare('SELECT count(*) AS n FROM audit_log WHERE action = ?').bind(action).first<{ n: number }>())!.n;
}

const refresh = () => operator.post<RefreshOutcome>('/api/v1/operator/rates/refresh', {});
const pin = (quote: string, rate: string, client = operator) =>
  client.call<RateView>(`/api/v1/operator/rates/${quote}/pin`, { method: 'PUT', body: { rate } });
const unpin = (quote: string) => operator.call<RateView>(`/api/v1/operator/rates/${quote}/pin`, { method: 'DELETE' });

beforeAll(async () => {
  await seed();
  operator = await signedInClient('rates-operator');
  editor = await signedInClient('rates-editor');
  buyer = await signedInClient('rates-buyer');
  for (const [client, role] of [
    [operator, 'operator'],
    [editor, 'editor'],
  ] as const) {
    await env.DB.prepare('INSERT INTO staff_roles (user_id, role, granted_at) VALUES (?, ?, 0)')
      .bind(Number(client.cookies.get('pnid')), role)
      .run();
  }
});

beforeEach(async () => {
  await steer('/_double/reset', 'POST');
});

describe('a refresh from the provider', () => {
  it('writes every unpinned rate with its source and time, and its audit row', async () => {
    await providerRates({ USD: 0.1279, TWD: 4.15 });
    const answer = await refresh();
    expect(answer.body.data, answer.text).toMatchObject({ outcome: 'updated' });
    expect(answer.body.data.outcome === 'updated' && answer.body.data.updated).toContain('USD');
    expect(await stored('USD')).toMatchObject({ micros: 127_900, source: 'provider', pinnedAt: null });
    expect((await stored('USD'))!.fetchedAt).toBeGreaterThan(Date.now() - 60_000);
    expect((await stored('TWD'))!.micros).toBe(4_150_000);
    expect((await stored('HKD'))!.micros).toBe(1_000_000);
    expect(await auditCount('rates.refresh')).toBe(1);

    const table = await operator.call<RateView[]>('/api/v1/operator/rates');
    expect(table.body.data.find((rate) => rate.quote === 'USD')).toMatchObject({ perHkd: '0.1279', source: 'provider', stale: false });
    expect(table.body.data.find((rate) => rate.quote === 'HKD')).toMatchObject({ isBase: true, perHkd: '1' });
  });

  it.each([
    ['HTTP 500', () => providerFails('server_error')],
    ['an answer that is not JSON', () => providerFails('malformed')],
    ['an error answer', () => providerFails('error_result')],
    ['a quote missing', () => providerRates({ TWD: null })],
    ['a quote far from the last', () => providerRates({ USD: 0.5 })],
    ['a quote that is not positive', () => providerRates({ THB: 0 })],
  ])('keeps every old rate on %s', async (_, failure) => {
    await providerRates({ USD: 0.128 });
    expect((await refresh()).body.data.outcome).toBe('updated');
    const before = await allRates();
    const audited = await auditCount('rates.refresh');
    await failure();
    const answer = await refresh();
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data).toMatchObject({ outcome: 'kept' });
    expect(await allRates()).toEqual(before);
    expect(await auditCount('rates.refresh')).toBe(audited);
  });
});

describe('a pinned rate', () => {
  it('survives refreshes until it is unpinned, each change audited once', async () => {
    const pinned = await pin('MYR', '0.6');
    expect(pinned.body.data, pinned.text).toMatchObject({ quote: 'MYR', perHkd: '0.6', source: 'manual' });
    expect(pinned.body.data.pinnedByName).not.toBeNull();
    await providerRates({ MYR: 0.58 });
    expect((await refresh()).body.data.outcome).toBe('updated');
    expect(await stored('MYR')).toMatchObject({ micros: 600_000, source: 'manual' });

    const unpinned = await unpin('MYR');
    expect(unpinned.body.data).toMatchObject({ pinnedAt: null, perHkd: '0.6' });
    await unpin('MYR');
    expect(await auditCount('rate.pin')).toBe(1);
    expect(await auditCount('rate.unpin')).toBe(1);
    expect((await refresh()).body.data.outcome).toBe('updated');
    expect(await stored('MYR')).toMatchObject({ micros: 580_000, source: 'provider' });
  });

  it('is typed as a positive decimal, and never the base', async () => {
    expect((await pin('USD', 'abc')).body).toMatchObject({ code: 400, errorCode: 'rate_invalid', field: 'rate' });
    expect((await pin('USD', '0')).body.errorCode).toBe('rate_invalid');
    expect((await pin('HKD', '2')).body).toMatchObject({ code: 409, errorCode: 'rate_base_fixed' });
    expect((await pin('XYZ', '2')).body).toMatchObject({ code: 404, errorCode: 'rate_not_found' });
    expect(await stored('USD')).toMatchObject({ pinnedAt: null });
  });
});

describe('the rates routes', () => {
  it('refuse an editor and a buyer', async () => {
    for (const [method, path, body] of [
      ['GET', '/api/v1/operator/rates', undefined],
      ['PUT', '/api/v1/operator/rates/USD/pin', { rate: '0.2' }],
      ['DELETE', '/api/v1/operator/rates/USD/pin', undefined],
      ['POST', '/api/v1/operator/rates/refresh', undefined],
    ] as const) {
      expect((await editor.call(path, { method, body })).body).toMatchObject({ code: 403, errorCode: 'staff_role_forbidden' });
      expect((await buyer.call(path, { method, body })).body).toMatchObject({ code: 403, errorCode: 'not_staff' });
    }
    expect(await stored('USD')).toMatchObject({ pinnedAt: null });
  });
});

describe('the hourly job', () => {
  it('asks the provider only once its rates are a day old, and keeps them when it fails', async () => {
    const db = database(env.DB, null, 'first-primary');
    const provider = ratesProvider(env);
    const now = Date.now();
    // As the seed leaves them: no rate from the provider yet, so the first run asks.
    await env.DB.prepare("UPDATE fx_rates SET source = 'seed', fetched_at = NULL, pinned_at = NULL, pinned_by = NULL").run();
    expect(await refreshRatesIfDue(db, provider, now)).toMatchObject({ outcome: 'updated' });
    await providerRates({ USD: 0.1301 });
    expect(await refreshRatesIfDue(db, provider, now + 3_600_000)).toBeNull();
    expect((await stored('USD'))!.micros).not.toBe(130_100);

    await providerFails('server_error');
    expect(await refreshRatesIfDue(db, provider, now + FX_RATES_REFRESH_AFTER_MS)).toMatchObject({ outcome: 'kept' });
    await providerFails(null);
    expect(await refreshRatesIfDue(db, provider, now + FX_RATES_REFRESH_AFTER_MS + 3_600_000)).toMatchObject({ outcome: 'updated' });
    expect((await stored('USD'))!.micros).toBe(130_100);
  });
});
