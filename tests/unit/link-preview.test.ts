import { describe, expect, it } from 'vitest';
import { linkPreviewTags } from '../../src/lib/domain/link-preview.ts';

const preview = {
  siteName: 'TicketWing',
  title: 'Kelvin Lau Live',
  description: 'From HK$680',
  url: 'https://t.example/zh-HK/activity/1000',
  locale: 'zh-HK' as const,
  image: { url: 'https://t.example/share-card.png', width: 1200, height: 630, type: 'image/png', alt: 'TicketWing' },
};

function content(tags: ReturnType<typeof linkPreviewTags>, key: string): string[] {
  return tags.filter((tag) => tag.key === key).map((tag) => tag.content);
}

describe('linkPreviewTags', () => {
  const tags = linkPreviewTags(preview);

  it('gives Open Graph tags as properties and Twitter tags as names', () => {
    expect(tags.every((tag) => (tag.key.startsWith('og:') ? tag.attribute === 'property' : tag.attribute === 'name'))).toBe(true);
    expect(content(tags, 'og:title')).toEqual(['Kelvin Lau Live']);
    expect(content(tags, 'og:url')).toEqual(['https://t.example/zh-HK/activity/1000']);
    expect(content(tags, 'og:image')).toEqual(['https://t.example/share-card.png']);
    expect(content(tags, 'og:type')).toEqual(['website']);
    expect(content(tags, 'twitter:image')).toEqual(['https://t.example/share-card.png']);
  });

  it('names the locale and its alternates', () => {
    expect(content(tags, 'og:locale')).toEqual(['zh_HK']);
    expect(content(tags, 'og:locale:alternate')).toEqual(['en_US', 'zh_TW', 'zh_CN']);
  });

  it('takes the large card for a wide image and the small one for a portrait poster', () => {
    expect(content(tags, 'twitter:card')).toEqual(['summary_large_image']);
    const poster = linkPreviewTags({ ...preview, image: { ...preview.image, width: 360, height: 480 } });
    expect(content(poster, 'twitter:card')).toEqual(['summary']);
  });
});
