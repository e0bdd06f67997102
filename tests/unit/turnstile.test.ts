import { describe, expect, it } from 'vitest';
import { judgeSiteverify, presentedChallenge, widgetLanguage } from '../../src/lib/domain/turnstile.ts';

const expected = { action: 'login_code', hostname: 'tickets.example.com' };
const passed = { success: true, 'error-codes': [], hostname: 'tickets.example.com', action: 'login_code' };

describe('judgeSiteverify', () => {
  it('passes a success for the expected action and hostname (in any letter case)', () => {
    expect(judgeSiteverify(passed, expected)).toBe('passed');
    expect(judgeSiteverify({ ...passed, hostname: 'Tickets.Example.com' }, expected)).toBe('passed');
  });

  it('fails a refused token, another step, another site, or an answer without them', () => {
    expect(judgeSiteverify({ success: false, 'error-codes': ['timeout-or-duplicate'] }, expected)).toBe('failed');
    expect(judgeSiteverify({ ...passed, action: 'waiting_room_join' }, expected)).toBe('failed');
    expect(judgeSiteverify({ ...passed, hostname: 'evil.example' }, expected)).toBe('failed');
    expect(judgeSiteverify({ success: true }, expected)).toBe('failed');
  });

  it('blames our configuration when siteverify refuses the secret', () => {
    expect(judgeSiteverify({ success: false, 'error-codes': ['invalid-input-secret'] }, expected)).toBe('secret_rejected');
    expect(judgeSiteverify({ success: false, 'error-codes': ['missing-input-secret'] }, expected)).toBe('secret_rejected');
  });
});

describe('presentedChallenge', () => {
  it('expects the public origin hostname, never the Host a request names, in a deployed build', () => {
    const config = { APP_ENV: 'production' as const, PUBLIC_ORIGIN: 'https://tickets.example.com' };
    expect(presentedChallenge(config, 'https://spoofed.example/api', '203.0.113.9', 'token')).toEqual({
      token: 'token',
      remoteIp: '203.0.113.9',
      hostname: 'tickets.example.com',
    });
  });

  it('expects the hostname asked on in a local build without a public origin', () => {
    expect(presentedChallenge({ APP_ENV: 'local' }, 'http://localhost:4321/api', null, undefined).hostname).toBe('localhost');
  });
});

describe('widgetLanguage', () => {
  it("speaks the page's language, Traditional Chinese for Hong Kong", () => {
    expect(widgetLanguage('en')).toBe('en');
    expect(widgetLanguage('zh-HK')).toBe('zh-tw');
    expect(widgetLanguage('zh-TW')).toBe('zh-tw');
    expect(widgetLanguage('zh-CN')).toBe('zh-cn');
  });
});
