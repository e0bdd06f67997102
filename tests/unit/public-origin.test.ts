import { describe, expect, it } from 'vitest';
import { publicOrigin } from '../../src/lib/domain/public-origin.ts';

describe('publicOrigin', () => {
  it('is the configured origin whatever the request says', () => {
    expect(publicOrigin({ APP_ENV: 'production', PUBLIC_ORIGIN: 'https://tickets.example.com/' }, 'http://evil.example/en/')).toBe(
      'https://tickets.example.com',
    );
    expect(publicOrigin({ APP_ENV: 'local', PUBLIC_ORIGIN: 'https://tickets.example.com' }, 'http://127.0.0.1:4321/')).toBe(
      'https://tickets.example.com',
    );
  });

  it('falls back to the request only in a local build', () => {
    expect(publicOrigin({ APP_ENV: 'local' }, 'http://127.0.0.1:4321/en/')).toBe('http://127.0.0.1:4321');
    expect(publicOrigin({ APP_ENV: 'production' }, 'http://evil.example/en/')).toBeNull();
  });

  it('refuses a configured value that is no URL', () => {
    expect(publicOrigin({ APP_ENV: 'production', PUBLIC_ORIGIN: 'tickets.example.com' }, 'http://evil.example/')).toBeNull();
  });
});
