import { expect, test } from '@playwright/test';

/** What another site's hidden form sends when a visitor lands there: a form body, its own origin. */
const crossSiteForm = {
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'https://attacker.example',
  'sec-fetch-site': 'cross-site',
};

test.describe('a form another site posts to one of our pages', () => {
  test('is refused with the error page, status 403, in the page language', async ({ request }) => {
    for (const [path, lang, heading] of [
      ['/en/contact', 'en', 'Request refused'],
      ['/zh-HK/contact', 'zh-HK', '請求被拒絕'],
      ['/zh-CN/login', 'zh-CN', '请求被拒绝'],
    ] as const) {
      const response = await request.post(path, { headers: crossSiteForm, data: 'name=x', maxRedirects: 0 });
      expect(response.status(), path).toBe(403);
      expect(response.headers()['content-type']).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain(`<html lang="${lang}"`);
      expect(html).toContain(heading);
    }
  });

  test('lets our own pages post to themselves', async ({ request, baseURL }) => {
    const response = await request.post('/en/contact', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseURL!).origin, 'sec-fetch-site': 'same-origin' },
      data: 'name=x',
    });
    expect(response.status()).toBe(200);
  });
});
