/**
 * No fixed element ever covers another: on every page type of scripts/quality/pages.ts
 * and the page types it leaves out (signed-in forms, payment outcomes, the door's pages), in English
 * and Traditional Chinese (where the floating customer-service button shows), no two visible
 * elements whose computed position is fixed or sticky overlap, at the top of the page, at every
 * screen's height down it, and at the bottom.
 */
import { expect, test, type Page } from '@playwright/test';
import { PAGE_TYPES, QUALITY_LOCALES } from '../../scripts/quality/pages.ts';
import { pageTypePath } from './page-types.ts';
import { fixture } from './fixtures.ts';
import { hydrated, localeOf, signInAsOrderSeller, type PagePrefix } from './shop-helpers.ts';

/**
 * The page types the quality gates' list leaves out, visited as its signed-in buyer: account
 * settings, the new-address and new-attendee forms, and the outcomes of a payment that failed or was
 * cancelled. (The door's pages are visited as a seller below; the sandbox's hosted payment page
 * stands in for a payment provider's and is not the product's; dev routes never reach production.)
 */
const MORE_PAGE_TYPES: (typeof PAGE_TYPES)[number][] = [
  ['account-setting', '/account_setting'],
  ['address-create', '/address/create'],
  ['attendee-create', '/customer/create'],
  ['pay-fail', '/payFail?orderId={orderId}'],
  ['pay-cancel', '/payCancel?orderId={orderId}'],
].map(([name, path]) => ({
  name,
  paths: Object.fromEntries(QUALITY_LOCALES.map((locale) => [locale, `/${locale}${path}`])),
  status: 200,
  budget: 'checkout',
  session: true,
}));

/**
 * Pairs of visible elements held on screen (fixed, or sticky and stuck at its offset) whose boxes
 * overlap (by more than rounding), each named by tag and class; an element inside another of the
 * pair is part of it, not over it. A sticky element not stuck scrolls with the page like any
 * content (a Buy now bar leaving with its section passes under the header), so it is not held.
 */
function overlappingFixedElements(): string[] {
  const name = (element: Element) => `${element.tagName.toLowerCase()}${[...element.classList].map((c) => `.${c}`).join('')}`;
  const onScreen = (rect: DOMRect) => rect.bottom > 0 && rect.top < window.innerHeight && rect.right > 0 && rect.left < window.innerWidth;
  const near = (a: number, b: number) => Math.abs(a - b) < 1;
  const heldInPlace = (element: Element, rect: DOMRect) => {
    const style = getComputedStyle(element);
    if (style.position === 'fixed') return true;
    if (style.position !== 'sticky') return false;
    return (
      (style.top !== 'auto' && near(rect.top, Number.parseFloat(style.top))) ||
      (style.bottom !== 'auto' && near(window.innerHeight - rect.bottom, Number.parseFloat(style.bottom)))
    );
  };
  const held = [...document.querySelectorAll('body *')]
    .filter((element) => ['fixed', 'sticky'].includes(getComputedStyle(element).position))
    .filter((element) => element.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
    .map((element) => ({ element, rect: element.getBoundingClientRect() }))
    .filter(({ element, rect }) => rect.width > 0 && rect.height > 0 && onScreen(rect) && heldInPlace(element, rect));
  const overlaps: string[] = [];
  for (const [index, a] of held.entries()) {
    for (const b of held.slice(index + 1)) {
      if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
      const width = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
      const height = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
      if (width > 1 && height > 1)
        overlaps.push(`${name(a.element)} and ${name(b.element)} overlap by ${width.toFixed(0)}×${height.toFixed(0)} px`);
    }
  }
  return overlaps;
}

async function scrollTo(page: Page, top: number): Promise<number> {
  await page.evaluate((y) => window.scrollTo({ top: y, behavior: 'instant' }), top);
  const reached = await page.evaluate(() => Math.min(window.scrollY, document.documentElement.scrollHeight - window.innerHeight));
  return Math.round(reached);
}

/** Scrolls the page from top to bottom, half a screen at a time, finding no fixed or sticky element over another at any stop. */
async function expectNoOverlapTopToBottom(page: Page): Promise<void> {
  const { scrollHeight, innerHeight } = await page.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    innerHeight: window.innerHeight,
  }));
  const stops = new Set<number>();
  for (let top = 0; top < scrollHeight; top += Math.floor(innerHeight / 2)) stops.add(top);
  stops.add(scrollHeight);
  for (const top of stops) {
    const reached = await scrollTo(page, top);
    expect(await page.evaluate(overlappingFixedElements), `fixed or sticky elements overlapping at scroll ${reached}`).toEqual([]);
  }
}

for (const pageType of [...PAGE_TYPES, ...MORE_PAGE_TYPES]) {
  for (const locale of QUALITY_LOCALES) {
    test(`${pageType.name} page (${locale}): no fixed or sticky element covers another, from top to bottom`, async ({ page, baseURL }) => {
      const path = await pageTypePath(page, pageType, locale, baseURL);
      const response = await page.goto(path);
      expect(response?.status(), `status of ${path}`).toBe(pageType.status);
      if (pageType.session) expect(new URL(page.url()).pathname, 'signed in, not sent to log in').not.toMatch(/\/login$/);
      await expectNoOverlapTopToBottom(page);

      // The case of the issue: with a bar held to the bottom of the screen (Buy now, Place order)
      // stuck there, its section running on below, the Chinese page's customer-service button floats above it.
      const bar = page.locator('[data-bottom-bar]:visible').first();
      const service = page.getByRole('link', { name: '客戶服務' });
      if (locale === 'en' || (await bar.count()) === 0 || (await service.count()) === 0) return;
      await bar.evaluate((element: HTMLElement) => {
        element.parentElement?.scrollIntoView({ block: 'end', behavior: 'instant' });
        window.scrollBy({ top: -element.offsetHeight, behavior: 'instant' });
      });
      const viewport = page.viewportSize()!;
      const barBox = (await bar.boundingBox())!;
      expect(Math.round(barBox.y + barBox.height), 'the bar is stuck to the bottom of the screen').toBe(viewport.height);
      const serviceBox = (await service.boundingBox())!;
      expect(serviceBox.y + serviceBox.height, 'the button ends above the bar').toBeLessThanOrEqual(barBox.y);
      expect(await page.evaluate(overlappingFixedElements)).toEqual([]);
    });
  }
}

test('a toast floats above the customer-service button, and neither covers the list’s sticky filters (Traditional Chinese)', async ({
  page,
}) => {
  await page.goto('/zh-HK/all?city=all');
  await hydrated(page, 'ListingFeed');
  await page.route('**/api/v1/list/**', (route) => route.abort());
  await page.getByRole('link', { name: '更多活動' }).scrollIntoViewIfNeeded();
  const toast = page.getByRole('status').filter({ hasText: '你的網絡連線不正常' });
  await expect(toast).toBeVisible();
  const service = page.getByRole('link', { name: '客戶服務' });
  await expect(service).toBeVisible();
  // Above it, not beside it: a longer message, as wide as the screen allows, still clears the button.
  const [toastBox, serviceBox] = [(await toast.boundingBox())!, (await service.boundingBox())!];
  expect(toastBox.y + toastBox.height).toBeLessThanOrEqual(serviceBox.y);
  expect(await page.evaluate(overlappingFixedElements)).toEqual([]);
});

for (const locale of QUALITY_LOCALES) {
  test(`the door's pages (${locale}): the sessions list and the check-in page, as a seller, with nothing fixed over anything else`, async ({
    page,
    baseURL,
  }) => {
    // The seller of the quality buyer's ticketed order, at that order's session.
    const orderPage = PAGE_TYPES.find((pageType) => pageType.name === 'order-detail')!;
    const orderId = Number((await pageTypePath(page, orderPage, locale, baseURL)).split('/').at(-1));
    const order = (await fixture('order', { orderId }))!;
    await page.context().clearCookies();
    await signInAsOrderSeller(page.request, order.orderNo);

    const list = await page.goto(`/${locale}/gate`);
    expect(list?.status()).toBe(200);
    await expectNoOverlapTopToBottom(page);

    const door = await page.goto(`/${locale}/gate?session=${order.sessionId}`);
    expect(door?.status()).toBe(200);
    await expect(page.getByRole('textbox', { name: localeOf(locale as PagePrefix).say('gate.code') })).toBeVisible();
    await hydrated(page, 'GateScanner');
    await expectNoOverlapTopToBottom(page);
  });
}
