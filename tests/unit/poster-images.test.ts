import { describe, expect, it } from 'vitest';
import { buildSeed } from '../../src/lib/db/seed.ts';
import {
  imageDelivery,
  imageUrl,
  isMediaFilePath,
  masterWidth,
  mediaPath,
  mediaVariantPath,
  parseMediaPath,
  parsePosterPath,
  POSTER_WIDTHS,
  type PosterKind,
  posterHeight,
  posterPath,
  responsiveImage,
  shareImage,
} from '../../src/lib/domain/poster-images.ts';

const KINDS: PosterKind[] = ['activity', 'banner'];

describe('poster paths', () => {
  it('reads the kind and id back from a master path', () => {
    for (const kind of KINDS) expect(parsePosterPath(posterPath(kind, 1042))).toEqual({ kind, id: 1042 });
  });

  it('takes no other image for a generated poster', () => {
    for (const src of [
      '/posters/activity/1042.svg',
      '/posters/activity/1042-240.avif',
      '/posters/flyer/1.jpg',
      'https://cdn.example/posters/activity/1.jpg',
    ]) {
      expect(parsePosterPath(src)).toBeNull();
    }
  });

  it('covers every poster and banner of the demo seed, which the build generates', () => {
    const seed = buildSeed(Date.UTC(2026, 10, 25));
    for (const row of [...seed.activities, ...seed.banners]) expect(parsePosterPath(String(row.poster))).not.toBeNull();
  });
});

describe('widths', () => {
  it('keeps each kind to its aspect in whole pixels at every width', () => {
    for (const width of POSTER_WIDTHS.activity) expect((width * 4) / 3).toBe(posterHeight('activity', width));
    for (const width of POSTER_WIDTHS.banner) expect((width * 7) / 16).toBe(posterHeight('banner', width));
  });

  it('has the master as the widest', () => {
    expect(masterWidth('activity')).toBe(360);
    expect(masterWidth('banner')).toBe(1200);
  });
});

describe('imageDelivery', () => {
  it('serves pre-generated files in a local build and Cloudflare transformations otherwise', () => {
    expect(imageDelivery('local')).toBe('static');
    expect(imageDelivery('production')).toBe('cloudflare');
  });
});

describe('imageUrl', () => {
  const master = posterPath('activity', 1042);

  it('names the pre-generated file of a width and format in a local build', () => {
    expect(imageUrl(master, 240, 'avif', 'static')).toBe('/posters/activity/1042-240.avif');
    expect(imageUrl(posterPath('banner', 7), 800, 'webp', 'static')).toBe('/posters/banner/7-800.webp');
  });

  it('has no local file for a width that was not generated or an image that is not a generated poster', () => {
    expect(imageUrl(master, 250, 'avif', 'static')).toBeNull();
    expect(imageUrl('/posters/activity/1042.svg', 240, 'avif', 'static')).toBeNull();
    expect(imageUrl('/uploads/photo.jpg', 240, 'avif', 'static')).toBeNull();
  });

  it('asks Cloudflare to resize and convert a same-origin raster image when deployed', () => {
    expect(imageUrl(master, 240, 'avif', 'cloudflare')).toBe(
      '/cdn-cgi/image/width=240,format=avif,onerror=redirect/posters/activity/1042.jpg',
    );
    expect(imageUrl('/uploads/photo.png', 640, 'webp', 'cloudflare')).toBe(
      '/cdn-cgi/image/width=640,format=webp,onerror=redirect/uploads/photo.png',
    );
  });

  it('leaves SVGs and other origins to be shown as they are when deployed', () => {
    expect(imageUrl('/posters/activity/1042.svg', 240, 'avif', 'cloudflare')).toBeNull();
    expect(imageUrl('https://cdn.example/photo.jpg', 240, 'avif', 'cloudflare')).toBeNull();
    expect(imageUrl('//cdn.example/photo.jpg', 240, 'avif', 'cloudflare')).toBeNull();
  });
});

describe('responsiveImage', () => {
  it('offers AVIF, then WebP, at every width of the kind, over the master', () => {
    const image = responsiveImage(posterPath('banner', 1128), 'banner', 'static');
    expect(image).toEqual({
      sources: [
        {
          type: 'image/avif',
          srcset:
            '/posters/banner/1128-400.avif 400w, /posters/banner/1128-640.avif 640w, /posters/banner/1128-800.avif 800w, /posters/banner/1128-1200.avif 1200w',
        },
        {
          type: 'image/webp',
          srcset:
            '/posters/banner/1128-400.webp 400w, /posters/banner/1128-640.webp 640w, /posters/banner/1128-800.webp 800w, /posters/banner/1128-1200.webp 1200w',
        },
      ],
      src: '/posters/banner/1128.jpg',
    });
  });

  it('builds the same widths from Cloudflare when deployed', () => {
    const image = responsiveImage(posterPath('activity', 1000), 'activity', 'cloudflare');
    expect(image?.sources[0].srcset).toBe(
      POSTER_WIDTHS.activity
        .map((width) => `/cdn-cgi/image/width=${width},format=avif,onerror=redirect/posters/activity/1000.jpg ${width}w`)
        .join(', '),
    );
  });

  it('has no variants for an image without them, which is then shown as it is', () => {
    expect(responsiveImage('/posters/activity/1000.svg', 'activity', 'static')).toBeNull();
    expect(responsiveImage('/posters/activity/1000.svg', 'activity', 'cloudflare')).toBeNull();
    // A poster asked for as a banner: the banner widths were not generated for it.
    expect(responsiveImage(posterPath('activity', 1000), 'banner', 'static')).toBeNull();
  });
});

describe('uploaded images', () => {
  const id = '0123456789abcdef0123';

  it('reads the kind and id back from a master path, and takes no other path for one', () => {
    for (const kind of KINDS) expect(parseMediaPath(mediaPath(kind, id))).toEqual({ kind, id });
    for (const src of [`/media/activity/${id}.png`, '/media/activity/0123.jpg', `/media/flyer/${id}.jpg`, `/posters/activity/${id}.jpg`]) {
      expect(parseMediaPath(src)).toBeNull();
    }
  });

  it('offers the variants stored beside the master, in both deliveries', () => {
    for (const delivery of ['static', 'cloudflare'] as const) {
      const image = responsiveImage(mediaPath('activity', id), 'activity', delivery);
      expect(image?.src).toBe(`/media/activity/${id}.jpg`);
      expect(image?.sources).toEqual([
        {
          type: 'image/avif',
          srcset: `/media/activity/${id}-144.avif 144w, /media/activity/${id}-240.avif 240w, /media/activity/${id}-360.avif 360w`,
        },
        {
          type: 'image/webp',
          srcset: `/media/activity/${id}-144.webp 144w, /media/activity/${id}-240.webp 240w, /media/activity/${id}-360.webp 360w`,
        },
      ]);
      expect(imageUrl(mediaPath('banner', id), 500, 'avif', delivery)).toBeNull();
    }
  });

  it('knows which paths can be a stored file', () => {
    expect(isMediaFilePath(mediaPath('banner', id))).toBe(true);
    expect(isMediaFilePath(mediaVariantPath('banner', id, 1200, 'webp'))).toBe(true);
    for (const path of [`/media/banner/${id}.png`, `/media/banner/${id}-1200.jpg`, `/media/banner/../${id}.jpg`, `/media/${id}.jpg`]) {
      expect(isMediaFilePath(path)).toBe(false);
    }
  });

  it('shares the master with its size locally', () => {
    expect(shareImage(mediaPath('activity', id), 'static')).toEqual({
      path: mediaPath('activity', id),
      width: 360,
      height: 480,
      type: 'image/jpeg',
    });
  });
});

describe('shareImage', () => {
  it('deployed, pads the poster onto a 1200×630 card through Cloudflare, falling back to the master', () => {
    expect(shareImage('/posters/activity/1000.jpg', 'cloudflare')).toEqual({
      path: '/cdn-cgi/image/width=1200,height=630,fit=pad,background=%23a3121e,format=jpeg,onerror=redirect/posters/activity/1000.jpg',
      width: 1200,
      height: 630,
      type: 'image/jpeg',
    });
  });

  it('locally, shares the master with its size; an image it cannot transform or size, as it is', () => {
    expect(shareImage('/posters/activity/1000.jpg', 'static')).toEqual({
      path: '/posters/activity/1000.jpg',
      width: 360,
      height: 480,
      type: 'image/jpeg',
    });
    expect(shareImage('/posters/activity/7.svg', 'cloudflare')).toEqual({ path: '/posters/activity/7.svg' });
    expect(shareImage('https://cdn.example/p.jpg', 'cloudflare')).toEqual({ path: 'https://cdn.example/p.jpg' });
  });
});
