/**
 * Posters and banners on a phone: the page's largest image (home: the first banner; an activity: its
 * poster; a listing: its first card's poster) loads at once with high priority and is preloaded from the head with the same candidates;
 * every other poster waits until it comes near, also on the cards a listing loads as it scrolls; each
 * image reserves its box; and every candidate URL answers an image of its format.
 */
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { hydrated } from './shop-helpers.ts';

const CONTENT_TYPES: Record<string, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' };

/** The head's one image preload, which must name the priority image's AVIF candidates and sizes. */
async function expectPreloadOf(page: Page, image: Locator): Promise<void> {
  const preload = page.locator('head link[rel="preload"][as="image"]');
  await expect(preload).toHaveCount(1);
  const avif = image.locator('xpath=preceding-sibling::source[@type="image/avif"]');
  await expect(preload).toHaveAttribute('fetchpriority', 'high');
  await expect(preload).toHaveAttribute('type', 'image/avif');
  await expect(preload).toHaveAttribute('imagesrcset', (await avif.getAttribute('srcset'))!);
  await expect(preload).toHaveAttribute('imagesizes', (await avif.getAttribute('sizes'))!);
}

async function expectPriority(image: Locator): Promise<void> {
  await expect(image).toHaveAttribute('loading', 'eager');
  await expect(image).toHaveAttribute('fetchpriority', 'high');
  await expect(image.page().locator('img[fetchpriority="high"]')).toHaveCount(1);
}

/** Every <img> of the page states its width and height, so nothing moves when it arrives. */
async function expectEveryImageSized(page: Page): Promise<void> {
  const unsized = await page
    .locator('img')
    .evaluateAll((images) =>
      images
        .filter((img) => !/^\d+$/.test(img.getAttribute('width') ?? '') || !/^\d+$/.test(img.getAttribute('height') ?? ''))
        .map((img) => img.outerHTML),
    );
  expect(unsized).toEqual([]);
}

/** Each candidate of the picture around `image` and its fallback answer 200 with their format's type. */
async function expectCandidatesServed(request: APIRequestContext, image: Locator): Promise<void> {
  const urls = await image.evaluate((img) => [
    (img as HTMLImageElement).getAttribute('src')!,
    ...[...img.parentElement!.querySelectorAll('source')].flatMap((source) =>
      source.srcset.split(', ').map((candidate) => candidate.split(' ')[0]),
    ),
  ]);
  expect(urls.length).toBeGreaterThan(4);
  for (const url of urls) {
    const response = await request.get(url);
    expect(response.status(), url).toBe(200);
    expect(response.headers()['content-type'], url).toBe(CONTENT_TYPES[url.split('.').at(-1)!]);
  }
}

/** The URL of the page's largest contentful paint so far. */
function largestPaintUrl(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        new PerformanceObserver((list) => resolve((list.getEntries().at(-1) as PerformancePaintTiming & { url: string }).url)).observe({
          type: 'largest-contentful-paint',
          buffered: true,
        });
      }),
  );
}

test.describe('home page images', () => {
  test('the first banner is the preloaded high-priority LCP image; later banners and posters load lazily', async ({ page, request }) => {
    await page.goto('/en/');
    const banners = page.getByRole('region', { name: 'Featured events' });
    const first = banners.getByRole('img', { name: 'Featured event 1' });
    await expectPriority(first);
    await expectPreloadOf(page, first);
    await expect(first).toHaveJSProperty('complete', true);
    const chosen = await first.evaluate((img) => (img as HTMLImageElement).currentSrc);
    expect(new URL(chosen).pathname).toMatch(/^\/posters\/banner\/\d+-\d+\.avif$/);
    expect(new URL(await largestPaintUrl(page)).pathname).toBe(new URL(chosen).pathname);

    const later = banners.getByRole('img', { name: /^Featured event ([2-9]|\d\d)$/ });
    expect(await later.count()).toBeGreaterThan(0);
    for (const banner of await later.all()) await expect(banner).toHaveAttribute('loading', 'lazy');

    // Beside the first banner only the first two hot posters load at once; every other poster is lazy.
    const posters = page.locator('picture img');
    const eager = page.locator('picture img[loading="eager"]');
    await expect(eager).toHaveCount(3);
    await expect(page.locator('picture img[loading="lazy"]')).toHaveCount((await posters.count()) - 3);
    await expect(page.getByRole('region', { name: 'Hot activities' }).locator('picture img[loading="eager"]')).toHaveCount(2);

    await expectEveryImageSized(page);
    await expectCandidatesServed(request, first);
    await expectCandidatesServed(request, page.getByRole('region', { name: 'Hot activities' }).locator('picture img').first());
  });
});

test.describe('activity page images', () => {
  test('the poster is the preloaded high-priority image beside the name, served in every format and width', async ({ page, request }) => {
    await page.goto('/en/activity/1000');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const poster = page.getByRole('article').locator('img[fetchpriority="high"]');
    await expectPriority(poster);
    await expectPreloadOf(page, poster);
    await expect(poster).toHaveJSProperty('complete', true);
    expect(new URL(await poster.evaluate((img) => (img as HTMLImageElement).currentSrc)).pathname).toMatch(
      /^\/posters\/activity\/1000-\d+\.avif$/,
    );
    await expectEveryImageSized(page);
    await expectCandidatesServed(request, poster);
  });
});

test.describe('listing images', () => {
  test('the first poster is the preloaded high-priority image, the second eager, the rest lazy, as are those the list loads as it scrolls', async ({
    page,
    request,
  }) => {
    await page.goto('/en/all');
    const cards = page.getByRole('main').getByRole('article');
    await expect(cards).toHaveCount(20);
    const first = cards.first().locator('picture img');
    await expectPriority(first);
    await expectPreloadOf(page, first);
    await expect(cards.nth(1).locator('picture img')).toHaveAttribute('loading', 'eager');
    await expect(page.locator('picture img[loading="lazy"]')).toHaveCount(18);
    await hydrated(page, 'ListingFeed');
    await page.getByRole('link', { name: 'More events' }).scrollIntoViewIfNeeded();
    await expect(cards).toHaveCount(40);
    const loaded = cards.nth(39).locator('picture img');
    await expect(loaded).toHaveAttribute('loading', 'lazy');
    await expect(loaded.locator('xpath=preceding-sibling::source')).toHaveCount(2);
    await expect(loaded.locator('xpath=preceding-sibling::source[1]')).toHaveAttribute('sizes', '96px');
    await expectEveryImageSized(page);
    await expectCandidatesServed(request, loaded);
  });
});
