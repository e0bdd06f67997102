/**
 * The sitemaps we build validate against the protocol's schema (tests/fixtures/sitemaps: the
 * sitemaps.org 0.9 urlset and index, and the xhtml:link alternates), checked by libxml2's own
 * validator compiled to WebAssembly.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { sitemapIndexXml, urlsetXml } from '../../src/lib/domain/sitemap.ts';
import { LOCALES } from '../../src/lib/i18n/locales.ts';

const fixtures = path.resolve(import.meta.dirname, '../fixtures/sitemaps');
const schemaFile = (fileName: string) => ({ fileName, contents: readFileSync(path.join(fixtures, fileName), 'utf8') });
const ORIGIN = 'https://tickets.example.com';

async function problems(xml: string, schema: string): Promise<string[]> {
  const result = await validateXML({
    xml: [{ fileName: 'sitemap.xml', contents: xml }],
    schema: [schemaFile(schema)],
    preload: [schemaFile('xhtml-link.xsd')],
  });
  return result.errors.map((error) => error.message);
}

describe('sitemaps against the sitemaps.org schema', () => {
  it('a locale file with alternates, dates and names that need escaping is valid', async () => {
    const entries = [
      { path: '/', lastModified: null },
      { path: '/concerts', lastModified: Date.UTC(2026, 10, 1, 8, 30) },
      { path: '/activity/1000', lastModified: Date.UTC(2026, 10, 25, 12, 0, 5) },
      { path: "/s_rock & roll's <best>", lastModified: null },
    ];
    for (const locale of LOCALES) expect(await problems(urlsetXml(ORIGIN, locale, entries), 'sitemap.xsd')).toEqual([]);
  });

  it('the index is valid, with and without a last change', async () => {
    const files = LOCALES.map((locale) => ({ locale, part: 1 }));
    expect(await problems(sitemapIndexXml(ORIGIN, files, Date.UTC(2026, 10, 25)), 'siteindex.xsd')).toEqual([]);
    expect(await problems(sitemapIndexXml(ORIGIN, files, null), 'siteindex.xsd')).toEqual([]);
  });

  it('the schema refuses what the protocol does not allow, so a pass means something', async () => {
    const relative = urlsetXml(ORIGIN, 'en', [{ path: '/', lastModified: null }]).replace(`<loc>${ORIGIN}/en/</loc>`, '<loc>/en/</loc>');
    expect(await problems(relative, 'sitemap.xsd')).not.toEqual([]);
    const noZone = urlsetXml(ORIGIN, 'en', [{ path: '/', lastModified: Date.UTC(2026, 10, 1) }]).replace(/Z<\/lastmod>/, '</lastmod>');
    expect(noZone).toContain('<lastmod>2026-11-01T00:00:00</lastmod>');
    expect(await problems(noZone, 'sitemap.xsd')).not.toEqual([]);
    const empty = '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n';
    expect(await problems(empty, 'sitemap.xsd')).not.toEqual([]);
  });
});
