/**
 * The country list of addresses and attendee nationalities: ISO 3166-1 alpha-2 codes, named in the
 * request's language by the runtime's own CLDR data (Intl.DisplayNames), so no name table is kept here.
 */
import type { Locale } from '../i18n/locales.ts';

/** The officially assigned ISO 3166-1 alpha-2 codes (AQ and the uninhabited BV, HM, UM left out). */
export const COUNTRY_CODES = [
  'AD', 'AE', 'AF', 'AG', 'AI', 'AL', 'AM', 'AO', 'AR', 'AS', 'AT', 'AU', 'AW', 'AX', 'AZ',
  'BA', 'BB', 'BD', 'BE', 'BF', 'BG', 'BH', 'BI', 'BJ', 'BL', 'BM', 'BN', 'BO', 'BQ', 'BR', 'BS', 'BT', 'BW', 'BY', 'BZ',
  'CA', 'CC', 'CD', 'CF', 'CG', 'CH', 'CI', 'CK', 'CL', 'CM', 'CN', 'CO', 'CR', 'CU', 'CV', 'CW', 'CX', 'CY', 'CZ',
  'DE', 'DJ', 'DK', 'DM', 'DO', 'DZ', 'EC', 'EE', 'EG', 'EH', 'ER', 'ES', 'ET', 'FI', 'FJ', 'FK', 'FM', 'FO', 'FR',
  'GA', 'GB', 'GD', 'GE', 'GF', 'GG', 'GH', 'GI', 'GL', 'GM', 'GN', 'GP', 'GQ', 'GR', 'GS', 'GT', 'GU', 'GW', 'GY',
  'HK', 'HN', 'HR', 'HT', 'HU', 'ID', 'IE', 'IL', 'IM', 'IN', 'IO', 'IQ', 'IR', 'IS', 'IT', 'JE', 'JM', 'JO', 'JP',
  'KE', 'KG', 'KH', 'KI', 'KM', 'KN', 'KP', 'KR', 'KW', 'KY', 'KZ', 'LA', 'LB', 'LC', 'LI', 'LK', 'LR', 'LS', 'LT', 'LU', 'LV', 'LY',
  'MA', 'MC', 'MD', 'ME', 'MF', 'MG', 'MH', 'MK', 'ML', 'MM', 'MN', 'MO', 'MP', 'MQ', 'MR', 'MS', 'MT', 'MU', 'MV', 'MW', 'MX', 'MY', 'MZ',
  'NA', 'NC', 'NE', 'NF', 'NG', 'NI', 'NL', 'NO', 'NP', 'NR', 'NU', 'NZ', 'OM',
  'PA', 'PE', 'PF', 'PG', 'PH', 'PK', 'PL', 'PM', 'PN', 'PR', 'PS', 'PT', 'PW', 'PY', 'QA', 'RE', 'RO', 'RS', 'RU', 'RW',
  'SA', 'SB', 'SC', 'SD', 'SE', 'SG', 'SH', 'SI', 'SJ', 'SK', 'SL', 'SM', 'SN', 'SO', 'SR', 'SS', 'ST', 'SV', 'SX', 'SY', 'SZ',
  'TC', 'TD', 'TF', 'TG', 'TH', 'TJ', 'TK', 'TL', 'TM', 'TN', 'TO', 'TR', 'TT', 'TV', 'TW', 'TZ',
  'UA', 'UG', 'US', 'UY', 'UZ', 'VA', 'VC', 'VE', 'VG', 'VI', 'VN', 'VU', 'WF', 'WS', 'YE', 'YT', 'ZA', 'ZM', 'ZW',
] as const;

export type CountryCode = (typeof COUNTRY_CODES)[number];

export interface Country {
  code: CountryCode;
  name: string;
}

const KNOWN = new Set<string>(COUNTRY_CODES);

/** The regions shown first: the marketplace's own markets. */
const FIRST: readonly CountryCode[] = ['HK', 'MO', 'TW', 'CN'];

/** The BCP 47 tag whose CLDR names match our locale's script and region. */
const DISPLAY_LOCALE: Record<Locale, string> = { en: 'en', 'zh-HK': 'zh-Hant-HK', 'zh-TW': 'zh-Hant-TW', 'zh-CN': 'zh-Hans-CN' };

export function isCountryCode(value: string): value is CountryCode {
  return KNOWN.has(value);
}

/** The name of one country in a locale. */
export function countryName(code: CountryCode, locale: Locale): string {
  return new Intl.DisplayNames([DISPLAY_LOCALE[locale]], { type: 'region' }).of(code) ?? code;
}

/** Every country with its localized name: our markets first, then the rest sorted by name in that language. */
export function countryList(locale: Locale): Country[] {
  const names = new Intl.DisplayNames([DISPLAY_LOCALE[locale]], { type: 'region' });
  const collator = new Intl.Collator(DISPLAY_LOCALE[locale]);
  const all = COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code }));
  const first = FIRST.map((code) => all.find((country) => country.code === code)!);
  const rest = all.filter((country) => !FIRST.includes(country.code)).sort((a, b) => collator.compare(a.name, b.name));
  return [...first, ...rest];
}
