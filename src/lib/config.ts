/**
 * Business constants of SPEC.md section 9 and the settled values of DESIGN.md, in one place.
 * Everything that reads a limit, a delay or a default imports it from here.
 */
export const CLIENT_TYPE = 12;
export const DEFAULT_CURRENCY = 'HKD';
export const DEFAULT_CITY_ID = 341;
/** City id sent when a URL asks to ignore the city (`ignoreCityId=true`). */
export const IGNORED_CITY_ID = -1;
export const REQUEST_TIMEOUT_MS = 10_000;

export const SEARCH_HISTORY_MAX = 20;
export const SEARCH_HISTORY_TTL_DAYS = 90;
export const SUGGESTION_DELAY_MS = 300;
export const CITY_SEARCH_DELAY_MS = 100;
export const PULL_TO_REFRESH_CLOSE_MS = 300;
export const HOT_WORD_ROTATION_MS = 2000;

export const HOME_POPUP_SCENE = 'HOME';
export const HOT_KEYWORDS_SHOWN = 5;
export const RECENT_SHOWS_DAYS = 15;

export const GEOLOCATION_OPTIONS = { enableHighAccuracy: true, timeout: 5000, maximumAge: 0 } as const;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 32;
export const EMAIL_CODE_LENGTH = 6;

/** Payment time limit (DESIGN.md): the hold on the tickets ends with it. */
export const PAYMENT_TIME_LIMIT_MS = 15 * 60 * 1000;

export const SUPPORT_HOURS = { weekdays: '10:00-18:00', weekends: '10:00-17:00' } as const;
export const SUPPORT_PHONES = ['+852 3001 8866', '+852 3001 8877'] as const;
export const SUPPORT_EMAIL = 'support@ticketwing.example';
export const SOCIAL_LINKS = [
  { name: 'Facebook', url: 'https://www.facebook.com/' },
  { name: 'Instagram', url: 'https://www.instagram.com/' },
  { name: 'YouTube', url: 'https://www.youtube.com/' },
  { name: 'X', url: 'https://x.com/' },
] as const;

export const TERMS_LAST_UPDATED = '2024-07-16';
export const COPYRIGHT_YEAR = 2024;
export const LIABILITY_CAP_HKD_MINOR = 50_000;
export const SLOW_PAGE_THRESHOLD_MS = 10_000;

export const DELIVERY_TYPES = ['e_ticket', 'on_site', 'self_pickup', 'courier'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];

export const PAYMENT_METHODS = [
  'amex', 'alipay', 'paynow', 'card_aggregator', 'wechat_pay', 'credit_card', 'bank_card', 'paypal', 'visa',
  'mastercard', 'unionpay',
] as const;

/** The payment logos of the footer (SPEC.md section 2): card brands, WeChat, Alipay, PayPal, PayNow. */
export const FOOTER_PAYMENT_LOGOS = ['visa', 'mastercard', 'amex', 'unionpay', 'wechat_pay', 'alipay', 'paypal', 'paynow'] as const;

/** Session cookie names of SPEC.md section 3: token and user id. */
export const TOKEN_COOKIE = 'pner';
export const USER_ID_COOKIE = 'pnid';
export const LANGUAGE_COOKIE = 'language';
export const CURRENCY_COOKIE = 'currencyCode';
export const CITY_COOKIE = 'cityId';
export const CHANNEL_COOKIE = 'channel';
export const HIDE_APP_INFO_COOKIE = 'hideAppInfo';
export const AD_CLICK_PARAMS = ['gclid', 'gbraid', 'gad_source', 'gad_campaignid'] as const;

/** Request headers every call carries (SPEC.md section 7). */
export const HEADER = {
  language: 'language',
  currency: 'currency',
  clientType: 'client-type',
  cityId: 'city-id',
  idempotencyKey: 'idempotency-key',
} as const;

export const MAX_PAGE_WIDTH_PX = 600;
export const SESSION_TTL_DAYS = 30;
