import { beforeAll, describe, expect, it } from 'vitest';
import { call, seed } from './helpers.ts';

beforeAll(() => seed());

describe('a JSON body beyond any route’s shape', () => {
  it("refuses deep nesting as bad input on `body`, in the caller's language", async () => {
    const levels = 15_000;
    const { status, body } = await call('/api/v1/currency/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', language: 'zh-CN' },
      body: `{"a":${'['.repeat(levels)}${']'.repeat(levels)}}`,
    });
    expect(status).toBe(400);
    expect(body).toEqual({
      code: 400,
      data: null,
      message: '必填信息不能为空或格式不正确：body',
      errorCode: 'invalid_input',
      field: 'body',
    });
  });

  it('refuses more object keys than any route takes, even around a valid body', async () => {
    const padding = Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`k${index}`, 0]));
    const { status, body } = await call('/api/v1/currency/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ currencyType: 11, ...padding }),
    });
    expect(status).toBe(400);
    expect(body).toMatchObject({ errorCode: 'invalid_input', field: 'body' });
  });

  it('still takes a body within the limits', async () => {
    const { status } = await call('/api/v1/currency/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ currencyType: 11 }),
    });
    expect(status).toBe(200);
  });
});
