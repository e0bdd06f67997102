/**
 * Quality gates on every page type of scripts/quality/pages.ts, in English and Traditional Chinese:
 * axe (no serious or critical violation), one main landmark, a title, the page's lang, named
 * controls, the first-load JavaScript budget measured from what the browser actually loads, and the
 * Content-Security-Policy: sent, and not one violation while the page loads and hydrates.
 */
import { gzipSync } from 'node:zlib';
import { expect, test, type Response } from '@playwright/test';
import { JS_BUDGET_KB, PAGE_TYPES, QUALITY_LOCALES } from '../../scripts/quality/pages.ts';
import { pageTypePath } from './page-types.ts';
import { seriousViolations, unnamedControls } from './shop-helpers.ts';

for (const pageType of PAGE_TYPES) {
  for (const locale of QUALITY_LOCALES) {
    test.describe(`${pageType.name} page (${locale}, ${pageType.paths[locale]})`, () => {
      test('has no serious or critical axe violation, one main landmark, a title, its lang and named controls', async ({
        page,
        baseURL,
      }) => {
        // axe (0.5 MB of script) is compiled and run on the page's main thread: about 1 s on a quiet
        // 2-core machine, but 20 s on the home page when other jobs share the CPU (its main thread
        // also lays out 34 posters), measured in a clean-clone run.
        test.slow();
        const path = await pageTypePath(page, pageType, locale, baseURL);
        const response = await page.goto(path);
        expect(response?.status(), `status of ${path}`).toBe(pageType.status);
        expect(new URL(page.url()).pathname, 'the page itself, not a redirect to sign in').toBe(new URL(path, baseURL).pathname);

        expect(await seriousViolations(page), 'serious or critical axe violations').toEqual([]);

        await expect(page.getByRole('main')).toHaveCount(1);
        expect((await page.title()).trim(), 'document title').not.toBe('');
        await expect(page.locator('html')).toHaveAttribute('lang', locale);
        expect(await unnamedControls(page), 'controls without an accessible name').toEqual([]);
      });

      test(`loads at most ${JS_BUDGET_KB[pageType.budget]} KB gzip of JavaScript until the network is idle, none render-blocking, none refused by its CSP`, async ({
        page,
        baseURL,
      }) => {
        const path = await pageTypePath(page, pageType, locale, baseURL);
        const violations: string[] = [];
        await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
        await page.addInitScript(() => {
          document.addEventListener('securitypolicyviolation', (event) => {
            (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation(
              `${event.effectiveDirective} refused ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`,
            );
          });
        });
        const scriptSizes: Promise<{ url: string; gzip: number }>[] = [];
        const measure = (scriptResponse: Response) => {
          if (scriptResponse.request().resourceType() !== 'script') return;
          scriptSizes.push(scriptResponse.body().then((body) => ({ url: scriptResponse.url(), gzip: gzipSync(body).length })));
        };
        page.on('response', measure);
        const response = await page.goto(path, { waitUntil: 'networkidle' });
        // Every body is read while the page is open: a script arriving after this point is not first load.
        page.off('response', measure);
        const files = await Promise.all(scriptSizes);
        expect(response?.status(), `status of ${path}`).toBe(pageType.status);
        expect(response?.headers()['content-security-policy'], "the page's Content-Security-Policy").toMatch(
          /script-src 'self' 'sha256-[^;]*; .*frame-ancestors 'none'|frame-ancestors 'none'.*script-src 'self' 'sha256-/,
        );
        expect(response?.headers()['content-security-policy']).not.toMatch(/script-src[^;]*'unsafe-inline'/);
        expect(violations, 'Content-Security-Policy violations').toEqual([]);

        const inline = await page.evaluate(() =>
          [...document.querySelectorAll('script:not([src])')]
            .filter((script) => ['', 'module', 'text/javascript', 'application/javascript'].includes((script as HTMLScriptElement).type))
            .map((script) => script.textContent ?? ''),
        );
        const inlineBytes = inline.reduce((sum, text) => sum + gzipSync(text).length, 0);
        const totalKb = (files.reduce((sum, file) => sum + file.gzip, 0) + inlineBytes) / 1000;
        const budgetKb = JS_BUDGET_KB[pageType.budget];
        console.log(
          `JS ${pageType.name} ${locale}: ${totalKb.toFixed(1)} KB gzip of ${budgetKb} KB (${files.length} files, ${inline.length} inline scripts)`,
        );
        test.info().annotations.push({ type: 'js-gzip-kb', description: `${totalKb.toFixed(1)} of ${budgetKb}` });
        const breakdown = [
          ...files.map((file) => `${(file.gzip / 1000).toFixed(1)} KB ${file.url}`),
          `${(inlineBytes / 1000).toFixed(1)} KB inline`,
        ].join('\n');
        expect(totalKb, `first-load JavaScript (KB gzip):\n${breakdown}`).toBeLessThanOrEqual(budgetKb);

        const blocking = await page.evaluate(() =>
          [...document.querySelectorAll('script[src]')]
            .filter((script) => {
              const element = script as HTMLScriptElement;
              return !element.async && !element.defer && element.type !== 'module';
            })
            .map((script) => (script as HTMLScriptElement).src),
        );
        expect(blocking, 'render-blocking scripts').toEqual([]);
      });
    });
  }
}
