/**
 * The link preview of a page (Open Graph and Twitter card tags): what chat apps and social sites show
 * when someone shares it — title, description, an absolute image URL and the page's locale with its
 * alternates. Pure: the layout passes in absolute URLs built on the configured public origin.
 */
import { LOCALES, type Locale } from '../i18n/locales.ts';

/**
 * The site's own share card (public/share-card.png), for pages without a poster of their own: the logo
 * on the brand colours and no words, so one image serves every language.
 */
export const SITE_SHARE_CARD = { path: '/share-card.png', width: 1200, height: 630, type: 'image/png' } as const;

export interface PreviewImage {
  url: string;
  /** Pixel size and media type, when known (a catalogue poster stored elsewhere may not say). */
  width?: number;
  height?: number;
  type?: string;
  alt: string;
}

export interface LinkPreview {
  siteName: string;
  title: string;
  description: string;
  /** The page's canonical URL. */
  url: string;
  locale: Locale;
  image: PreviewImage;
}

export interface MetaTag {
  /** Open Graph tags are `property`, Twitter's are `name`. */
  attribute: 'property' | 'name';
  key: string;
  content: string;
}

/** Open Graph locales are language_TERRITORY. */
const OG_LOCALE: Record<Locale, string> = { en: 'en_US', 'zh-HK': 'zh_HK', 'zh-TW': 'zh_TW', 'zh-CN': 'zh_CN' };

/** A wide image fills Twitter's large card; a portrait poster reads better in the small one than cropped to 2:1. */
function twitterCard({ width, height }: PreviewImage): 'summary_large_image' | 'summary' {
  return width !== undefined && height !== undefined && width / height >= 1.5 ? 'summary_large_image' : 'summary';
}

export function linkPreviewTags(preview: LinkPreview): MetaTag[] {
  const og = (key: string, content: string): MetaTag => ({ attribute: 'property', key: `og:${key}`, content });
  const twitter = (key: string, content: string): MetaTag => ({ attribute: 'name', key: `twitter:${key}`, content });
  const { image } = preview;
  return [
    og('type', 'website'),
    og('site_name', preview.siteName),
    og('title', preview.title),
    og('description', preview.description),
    og('url', preview.url),
    og('locale', OG_LOCALE[preview.locale]),
    ...LOCALES.filter((code) => code !== preview.locale).map((code) => og('locale:alternate', OG_LOCALE[code])),
    og('image', image.url),
    ...(image.type === undefined ? [] : [og('image:type', image.type)]),
    ...(image.width === undefined || image.height === undefined
      ? []
      : [og('image:width', String(image.width)), og('image:height', String(image.height))]),
    og('image:alt', image.alt),
    twitter('card', twitterCard(image)),
    twitter('title', preview.title),
    twitter('description', preview.description),
    twitter('image', image.url),
    twitter('image:alt', image.alt),
  ];
}
