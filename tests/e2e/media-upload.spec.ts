/**
 * An editor's poster upload on the built worker under wrangler: R2 and Cloudflare Images as wrangler
 * emulates them locally. The upload answers the master's path; the master and every variant the
 * pages' srcset names are served from the bucket with their type, size and a year of immutable
 * caching, without the upload's EXIF; a text file named like a JPEG is refused in words. The
 * console's images page uploads with a plain form (no script), shows a refusal on the file field
 * with the chosen kind kept, and lists the new image with its path.
 */
import { expect, test } from '@playwright/test';
import sharp from 'sharp';
import { responsiveImage } from '../../src/lib/domain/poster-images.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A flat-coloured image of a size, as a file for a form's file input. */
async function imageFile(name: string, width: number, height: number) {
  const buffer = await sharp({ create: { width, height, channels: 3, background: { r: 20, g: 90, b: 160 } } })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

test('an editor uploads a poster and its variants are served from R2', async ({ page, baseURL }, testInfo) => {
  await ownClientAddress(page.context(), testInfo);
  const { userId } = await signUpByEmail(page.request, 'poster-editor');
  await fixture('make-staff', { userId, role: 'editor' });

  const photo = await sharp({ create: { width: 1200, height: 1500, channels: 3, background: { r: 163, g: 18, b: 30 } } })
    .withExif({ IFD0: { Make: 'PhoneMaker', ImageDescription: 'GPS 22.2819N 114.1582E' } })
    .jpeg()
    .toBuffer();
  const upload = (name: string, mimeType: string, buffer: Buffer) =>
    page.request.post('/api/v1/operator/images', {
      headers: { origin: baseURL! },
      multipart: { kind: 'activity', file: { name, mimeType, buffer } },
    });

  const accepted = await upload('poster.jpg', 'image/jpeg', photo);
  expect(accepted.status(), await accepted.text()).toBe(200);
  const { data } = (await accepted.json()) as { data: { path: string; width: number; height: number } };
  expect(data).toMatchObject({ path: expect.stringMatching(/^\/media\/activity\/[0-9a-f]{20}\.jpg$/), width: 360, height: 480 });

  const master = await page.request.get(data.path);
  expect(master.status()).toBe(200);
  expect(master.headers()['content-type']).toBe('image/jpeg');
  expect(master.headers()['cache-control']).toBe(IMMUTABLE);
  expect(master.headers().etag).toBeTruthy();
  const masterBytes = await master.body();
  expect((await sharp(masterBytes).metadata()).width).toBe(360);
  expect(masterBytes.includes('PhoneMaker')).toBe(false);
  expect(photo.includes('PhoneMaker')).toBe(true);

  const sources = responsiveImage(data.path, 'activity', 'static')!.sources;
  for (const source of sources) {
    for (const candidate of source.srcset.split(', ')) {
      const [url, width] = candidate.split(' ');
      const variant = await page.request.get(url);
      expect(variant.status(), url).toBe(200);
      expect(variant.headers()['content-type'], url).toBe(source.type);
      expect(variant.headers()['cache-control'], url).toBe(IMMUTABLE);
      expect((await sharp(await variant.body()).metadata()).width, url).toBe(Number.parseInt(width, 10));
    }
  }

  const refused = await upload('poster.jpg', 'image/jpeg', Buffer.from('not a picture at all'));
  expect(refused.status()).toBe(400);
  expect(await refused.json()).toMatchObject({
    errorCode: 'image_type_unsupported',
    message: expect.stringContaining('JPEG, PNG, WebP or AVIF'),
  });
  expect((await page.request.get(data.path.replace('.jpg', '-999.avif'))).status()).toBe(404);
});

test.describe('the console’s images page', () => {
  test.use({ javaScriptEnabled: false });

  test('uploads a banner with a plain form, refusing a small one on its field first', async ({ page }, testInfo) => {
    await ownClientAddress(page.context(), testInfo);
    const { userId } = await signUpByEmail(page.request, 'banner-editor');
    await fixture('make-staff', { userId, role: 'editor' });

    await page.goto('/ops/images');
    await expect(page.getByRole('heading', { level: 1, name: 'Images' })).toBeVisible();
    await page.getByRole('radio', { name: 'Home banner (16:7)' }).check();
    await page.getByLabel('Image file').setInputFiles(await imageFile('small.png', 800, 350));
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'The image is too small: at least 1200 × 525 pixels, so it stays sharp on every screen.',
    );
    await expect(page.getByRole('radio', { name: 'Home banner (16:7)' })).toBeChecked();
    await expect(page.getByLabel('Image file')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Image file').setInputFiles(await imageFile('banner.png', 1600, 700));
    await page.getByRole('button', { name: 'Upload' }).click();
    const status = page.getByRole('status');
    await expect(status).toContainText('Uploaded.');
    const path = await status.locator('code').textContent();
    expect(path).toMatch(/^\/media\/banner\/[0-9a-f]{20}\.jpg$/);
    const row = page.getByRole('row').filter({ hasText: path! });
    await expect(row).toContainText('Home banner (16:7)');
    await expect(row).toContainText('1200 × 525 px');
    const preview = row.locator('img.preview');
    await expect(preview).toHaveJSProperty('naturalWidth', 400);
  });

  test('is a 403 for a signed-in buyer', async ({ page }, testInfo) => {
    await ownClientAddress(page.context(), testInfo);
    await signUpByEmail(page.request, 'images-buyer');
    const response = await page.goto('/ops/images');
    expect(response?.status()).toBe(403);
  });
});
