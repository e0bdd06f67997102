import { env } from 'cloudflare:workers';
import { createExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { PAGE_CACHE_HEADER, sharedPage } from '../../src/lib/pages/shared-page-cache.ts';

/** A database whose every query fails, as D1 does when its connection drops. */
const unreachableDb = {
  withSession: () => ({
    prepare: () => {
      throw new Error('D1_ERROR: Network connection lost.');
    },
    getBookmark: () => null,
  }),
} as unknown as D1Database;

describe('the shared page cache', () => {
  it('renders a page for the visitor alone when the catalogue version cannot be read, instead of failing', async () => {
    const rendered: Request[] = [];
    const answer = await sharedPage(
      new Request('http://localhost/en/'),
      { ...env, DB: unreachableDb },
      createExecutionContext(),
      async (page) => {
        rendered.push(page);
        return new Response('<!doctype html><title>Home</title>', { headers: { 'content-type': 'text/html' } });
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get(PAGE_CACHE_HEADER)).toBe('bypass');
    expect(await answer.text()).toContain('<title>Home</title>');
    expect(rendered).toHaveLength(1);
  });
});
