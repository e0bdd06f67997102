import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { api } from '../../src/lib/api/app.ts';

/** A D1 binding that fails the test's request if anything reaches it. */
const untouchableDb = new Proxy({} as D1Database, {
  get() {
    throw new Error('the database was touched');
  },
});

describe('the body-size limit', () => {
  it("answers 413 in the caller's language before any database read", async () => {
    const request = new Request('http://localhost/api/v1/currency/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json', language: 'zh-CN' },
      body: JSON.stringify({ padding: 'x'.repeat(70 * 1024) }),
    });
    const response = await api.fetch(request, { ...env, DB: untouchableDb });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: 413, data: null, message: '请求内容过大', errorCode: 'payload_too_large' });
  });
});
