/**
 * The catalogue from the console: an editor makes a venue and an activity with two sessions and three
 * tiers, a box office and an uploaded poster, previews it (the real activity page, marked as not
 * published) and publishes it; a buyer finds it by searching in Traditional Chinese, sees the poster
 * at the size it is shown, and buys two tickets from the box office; an operator unpublishes it and
 * it leaves the search. On a laptop, a form refuses a bad field in the page's words and keeps what was typed.
 */
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import sharp from 'sharp';
import { wallTime } from '../../src/lib/domain/calendar.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';
import { buyOnDetailPage, confirmETicketByCard, detailOf, localeOf, offerOf, payInSandbox } from './shop-helpers.ts';

const DAY = 24 * 3600 * 1000;
const HOUR = 3600 * 1000;

test.beforeEach(async ({ context }, testInfo) => {
  // Sign-ups, a dozen saved forms and a search through the edge cache: more than a page load's worth.
  test.slow();
  await ownClientAddress(context, testInfo);
});

/** A time as a datetime-local input in Hong Kong takes it. */
const hongKongWallTime = (ms: number) => wallTime(ms, 'Asia/Hong_Kong');

async function signInAs(page: Page, role: 'editor' | 'operator', label: string): Promise<void> {
  const { userId } = await signUpByEmail(page.request, label);
  await fixture('make-staff', { userId: Number(userId), role });
}

async function staffPage(browser: Browser, testInfo: TestInfo, role: 'editor' | 'operator', label: string): Promise<Page> {
  const context = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(context, testInfo);
  const page = await context.newPage();
  await signInAs(page, role, label);
  return page;
}

async function addSession(page: Page, startsAt: number): Promise<void> {
  const form = page.getByRole('region', { name: 'Add session' });
  await form.getByLabel('Starts').fill(hongKongWallTime(startsAt));
  await form.getByLabel('Ends').fill(hongKongWallTime(startsAt + 3 * HOUR));
  await form.getByLabel('Sale opens').fill(hongKongWallTime(Date.now() - DAY));
  await form.getByLabel('Sale closes').fill(hongKongWallTime(startsAt - HOUR));
  await form.getByLabel('Tickets per account (empty: default)').fill('4');
  await form.getByRole('button', { name: 'Add session' }).click();
}

async function addTier(page: Page, session: number, names: [string, string, string], faceValue: string): Promise<void> {
  const form = page
    .getByRole('region', { name: `Sessions ${session}` })
    .locator('form')
    .last();
  await form.getByLabel('Name (English)').fill(names[0]);
  await form.getByLabel('Name (Traditional Chinese)').fill(names[1]);
  await form.getByLabel('Name (Simplified Chinese)').fill(names[2]);
  await form.getByLabel('Face value').fill(faceValue);
  await form.getByLabel('Quota').fill('200');
  await form.getByRole('button', { name: 'Add tier' }).click();
}

test('an editor publishes a new activity, a buyer finds it in Traditional Chinese, an operator unpublishes it', async ({
  page,
  browser,
}, testInfo) => {
  const name = { en: 'Harbour Lanterns Gala', zhHant: '維港燈籠音樂會', zhHans: '维港灯笼音乐会' };
  await signInAs(page, 'editor', 'catalogue-editor');

  await page.goto('/ops/venues');
  await page.getByLabel('City').selectOption({ label: 'Hong Kong' });
  await page.getByLabel('Name (English)').fill('Lantern Pier Hall');
  await page.getByLabel('Name (Traditional Chinese)').fill('燈籠碼頭廳');
  await page.getByLabel('Name (Simplified Chinese)').fill('灯笼码头厅');
  await page.getByLabel('Address (English)').fill('8 Pier Road, Central');
  await page.getByLabel('Address (Chinese)').fill('中環碼頭道8號');
  await page.getByLabel('Map link (https, optional)').fill('https://maps.example.com/lantern-pier');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('link', { name: 'Lantern Pier Hall' })).toBeVisible();

  await page.goto('/ops/activities');
  await page.getByRole('link', { name: 'New activity' }).click();
  await page.getByLabel('Name (English)').fill(name.en);
  await page.getByLabel('Name (Traditional Chinese)').fill(name.zhHant);
  await page.getByLabel('Name (Simplified Chinese)').fill(name.zhHans);
  await page.getByLabel('Category').selectOption({ label: 'Concerts' });
  await page.getByLabel('City').selectOption({ label: 'Hong Kong' });
  await page.getByLabel('Venue').selectOption({ label: 'Lantern Pier Hall (Hong Kong)' });
  await page.getByLabel('Description (English)').fill('Lanterns over the harbour, music on the pier.');
  await page.getByLabel('Description (Traditional Chinese)').fill('海港燈籠，碼頭音樂。');
  await page.getByLabel('Description (Simplified Chinese)').fill('海港灯笼，码头音乐。');
  await page.getByLabel('Buying notes (English)').fill('Doors open an hour early.');
  await page.getByLabel('Sold by (box office)').selectOption({ index: 1 });
  const poster = await sharp({ create: { width: 900, height: 1200, channels: 3, background: { r: 200, g: 120, b: 30 } } })
    .jpeg()
    .toBuffer();
  await page.getByLabel('Poster').setInputFiles({ name: 'lanterns.jpg', mimeType: 'image/jpeg', buffer: poster });
  await expect(page.locator('img.ops-poster-preview')).toHaveAttribute('src', /^\/media\/activity\/[0-9a-f]{20}\.jpg$/);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/ops\/activities\/\d+$/);
  const activityId = Number(page.url().split('/').pop());
  await expect(page.getByText('Not published', { exact: true })).toBeVisible();

  const first = Date.now() + 40 * DAY;
  await addSession(page, first);
  await expect(page.getByRole('region', { name: 'Sessions 1' })).toBeVisible();
  await addSession(page, first + DAY);
  await expect(page.getByRole('region', { name: 'Sessions 2' })).toBeVisible();
  await addTier(page, 1, ['Stalls', '池座', '池座'], '880');
  await expect(page.getByRole('region', { name: 'Sessions 1' }).locator('form')).toHaveCount(3);
  await addTier(page, 1, ['Balcony', '樓座', '楼座'], '480');
  await expect(page.getByRole('region', { name: 'Sessions 1' }).locator('form')).toHaveCount(4);
  await addTier(page, 2, ['Stalls', '池座', '池座'], '880');
  await expect(page.getByRole('region', { name: 'Sessions 2' }).locator('form')).toHaveCount(3);

  // Nothing on the console page is wider than a small phone.
  await page.setViewportSize({ width: 320, height: 720 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 412, height: 839 });

  await page.getByRole('link', { name: 'Preview' }).click();
  await expect(page.getByRole('heading', { level: 1, name: name.en })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Preview — not published' })).toBeVisible();
  await page.goBack();

  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Unpublish', exact: true })).toBeVisible();
  await expect(page.getByText('Published', { exact: true })).toBeVisible();

  const buyerContext = await browser.newContext({ ...testInfo.project.use });
  await ownClientAddress(buyerContext, testInfo);
  const buyer = await buyerContext.newPage();
  await buyer.goto(`/zh-HK/s_${encodeURIComponent(name.zhHant)}`);
  const card = buyer.getByRole('link', { name: new RegExp(name.zhHant) });
  await expect(card.first()).toBeVisible();
  await card.first().click();
  await expect(buyer.getByRole('heading', { level: 1, name: name.zhHant })).toBeVisible();
  await expect(buyer.getByText('Preview — not published')).toHaveCount(0);

  // The poster the page shows is one of the upload's variants, as wide as its box needs on this phone.
  const shown = await buyer.evaluate(() => {
    const image = [...document.images].find((img) => img.currentSrc.includes('/media/activity/'));
    return image
      ? { src: image.currentSrc, natural: image.naturalWidth, box: image.getBoundingClientRect().width, dpr: devicePixelRatio }
      : null;
  });
  expect(shown, 'the uploaded poster on the activity page').not.toBeNull();
  expect(shown!.src).toMatch(/\/media\/activity\/[0-9a-f]{20}-\d+\.(avif|webp)$/);
  // The variant's file is as wide as its name says (media-upload.spec.ts); the browser chose one wide enough for the box.
  const fileWidth = Number(/-(\d+)\.\w+$/.exec(shown!.src)![1]);
  expect(fileWidth).toBeGreaterThanOrEqual(Math.min(shown!.box * shown!.dpr, 360));

  // Two tickets of the box office's listing, bought and paid on the buyer's phone in Traditional Chinese.
  await signUpByEmail(buyer.request, 'catalogue-buyer');
  const zhHK = localeOf('zh-HK');
  const activity = (await detailOf(buyer.request, activityId, 'zh-HK'))!;
  const tier = activity.sessions[0].tiers.find((each) => each.hasTicket)!;
  const [listing] = (await offerOf(buyer.request, activityId, tier.id, { language: 'zh-HK', currency: 'HKD' })).ticketGroupInfoList;
  await buyOnDetailPage(buyer, zhHK, { activity, listing, quantity: 2 });
  const order = await confirmETicketByCard(buyer, zhHK);
  expect(order.quantity).toBe(2);
  await payInSandbox(buyer, order);

  const operator = await staffPage(browser, testInfo, 'operator', 'catalogue-operator');
  await operator.goto(`/ops/activities/${activityId}`);
  await operator.getByRole('button', { name: 'Unpublish', exact: true }).click();
  await expect(operator.getByRole('button', { name: 'Publish', exact: true })).toBeVisible();

  // The shared page cache keys search pages by the catalogue's version, which the unpublishing moved.
  await expect(async () => {
    await buyer.goto(`/zh-HK/s_${encodeURIComponent(name.zhHant)}`);
    await expect(buyer.getByRole('link', { name: new RegExp(name.zhHant) })).toHaveCount(0, { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  const gone = await buyer.goto(`/zh-HK/activity/${activityId}`);
  expect(gone?.status()).toBe(404);
});

test.describe('on a laptop', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('a venue form refuses an http map link in its own words, keeps what was typed, then saves; an artist is renamed', async ({
    page,
  }) => {
    await signInAs(page, 'editor', 'catalogue-laptop');
    await page.goto('/ops/venues');
    await page.getByLabel('Name (English)').fill('Kowloon Lantern Hall');
    await page.getByLabel('Name (Traditional Chinese)').fill('九龍燈籠廳');
    await page.getByLabel('Address (English)').fill('1 Canton Road');
    await page.getByLabel('Address (Chinese)').fill('廣東道1號');
    await page.getByLabel('Map link (https, optional)').fill('http://maps.example.com/kowloon');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The map link must be an https:// address.')).toBeVisible();
    await expect(page.getByText('Please fill in the name')).toBeVisible();
    await expect(page.getByLabel('Name (English)')).toHaveValue('Kowloon Lantern Hall');

    await page.getByLabel('Name (Simplified Chinese)').fill('九龙灯笼厅');
    await page.getByLabel('Map link (https, optional)').fill('https://maps.example.com/kowloon');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('link', { name: 'Kowloon Lantern Hall' })).toBeVisible();

    await page.goto('/ops/artists');
    await page.getByLabel('Name (English)').fill('Lantern Quartet');
    await page.getByLabel('Name (Traditional Chinese)').fill('燈籠四重奏');
    await page.getByLabel('Name (Simplified Chinese)').fill('灯笼四重奏');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('link', { name: 'Lantern Quartet' }).click();
    await page.getByLabel('Name (English)').fill('Lantern String Quartet');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
    await page.reload();
    await expect(page.getByRole('link', { name: 'Lantern String Quartet' })).toBeVisible();
  });
});
