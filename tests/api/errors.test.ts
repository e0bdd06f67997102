import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { call, seed } from './helpers.ts';

describe('the error envelope', () => {
  it('answers an unknown path with a localized 404 envelope', async () => {
    const { status, body } = await call('/api/v1/nothing-here', { headers: { language: 'zh-CN' } });
    expect(status).toBe(404);
    expect(body).toEqual({ code: 404, data: null, message: '未找到内容', errorCode: 'not_found' });
    const english = await call('/api/api/v1/nothing-here');
    expect(english.body.message).toBe('Not found');
  });

  it('refuses an oversized body with 413', async () => {
    const { status, body } = await call('/api/v1/currency/save', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ padding: 'x'.repeat(70 * 1024) }),
    });
    expect(status).toBe(413);
    expect(body.errorCode).toBe('payload_too_large');
  });

  it('turns a database failure into a 500 envelope without internals', async () => {
    await seed();
    await env.DB.exec('DROP TABLE banners');
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { status, body } = await call('/api/', { headers: { language: 'zh-HK' } });
    expect(status).toBe(500);
    expect(body).toEqual({ code: 500, data: null, message: '前方擁堵，請稍後再試...', errorCode: 'internal' });
    expect(JSON.stringify(body)).not.toMatch(/banners|SQL|stack/i);
    expect(log).toHaveBeenCalledWith('Unhandled API error', 'GET', '/api', expect.anything());
  });
});
