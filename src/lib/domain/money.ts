/**
 * The one money type: an integer amount in the minor units of its currency. Conversion goes
 * through HKD with rates stored as "quote units per HKD, in millionths", in BigInt so that
 * large-unit currencies (IDR, VND) never lose precision.
 */
import { FormattedMemo, numberFormat } from './intl-cache.ts';

export interface Money {
  amount: number;
  currency: string;
}

export interface CurrencyInfo {
  code: string;
  minorDigits: number;
  /** Quote units one HKD buys, times 1,000,000. */
  perHkdMicros: number;
}

export type CurrencyTable = ReadonlyMap<string, CurrencyInfo>;

function info(table: CurrencyTable, code: string): CurrencyInfo {
  const found = table.get(code);
  if (!found) throw new Error(`Unknown currency ${code}`);
  return found;
}

/**
 * Converts minor units between currencies, rounding half away from zero; `up` rounds a positive
 * amount up instead, for a minimum shown in another currency (a coupon's minimum spend), so that
 * spending the shown amount always meets the minimum in its own currency.
 */
export function convert(money: Money, to: string, table: CurrencyTable, rounding: 'nearest' | 'up' = 'nearest'): Money {
  if (money.currency === to) return money;
  const from = info(table, money.currency);
  const target = info(table, to);
  const numerator = BigInt(money.amount) * BigInt(target.perHkdMicros) * 10n ** BigInt(target.minorDigits);
  const denominator = BigInt(from.perHkdMicros) * 10n ** BigInt(from.minorDigits);
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  const rounded =
    rounding === 'up' && !negative ? (magnitude + denominator - 1n) / denominator : (magnitude * 2n + denominator) / (denominator * 2n);
  return { amount: Number(negative ? -rounded : rounded), currency: to };
}

/** An amount with its display text, as API answers carry money. */
export type FormattedMoney = Money & { formatted: string };

/** An amount of minor units with its text in a locale, the minor digits taken from the currency table. */
export function formattedMoney(amount: number, currency: string, locale: string, table: CurrencyTable): FormattedMoney {
  return { amount, currency, formatted: formatMoney({ amount, currency }, locale, table.get(currency)?.minorDigits ?? 2) };
}

/**
 * How each currency is written, whatever the page's language. A marketplace showing several dollars
 * (and yuan beside yen) cannot let a locale imply its own: Intl writes TWD as a bare "$" in zh-TW and
 * CNY as a bare "¥" in zh-CN. Dollars carry their country prefix, other currencies their customary
 * unambiguous symbol or, where the symbol is not widely read or not in the share cards' fonts, the
 * ISO code. A currency missing here is written with its ISO code. Fixed strings rather than Intl's
 * symbols also keep server and browser (whose ICU data may differ) writing the same text.
 */
export const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = {
  HKD: 'HK$',
  MOP: 'MOP$',
  TWD: 'NT$',
  SGD: 'S$',
  USD: 'US$',
  CNY: 'CN¥',
  MYR: 'RM',
  IDR: 'Rp',
};

/**
 * Formats for display in a locale: HK$388, HK$388.50, NT$2,800, THB 1,234.50. Whole amounts drop
 * their zero decimals so cards stay short on a phone, unless a legal text states them (HK$500.00). The digits are the currency's minor digits,
 * which are how it is customarily written (TWD, IDR and VND in whole units): a converted amount is
 * rounded to them when converted, so what is shown is exactly what is charged.
 */
export function formatMoney(money: Money, locale: string, minorDigits: number, options?: { keepZeroDecimals: boolean }): string {
  const keepZeroDecimals = options?.keepZeroDecimals ?? false;
  return moneyTexts.get(`${locale}|${money.currency}|${minorDigits}|${money.amount}|${keepZeroDecimals}`, () => {
    const scale = 10 ** minorDigits;
    const whole = !keepZeroDecimals && money.amount % scale === 0;
    const parts = numberFormat(locale, {
      style: 'currency',
      currency: money.currency,
      currencyDisplay: 'code',
      minimumFractionDigits: whole ? 0 : minorDigits,
      maximumFractionDigits: whole ? 0 : minorDigits,
    }).formatToParts(money.amount / scale);
    const symbol = CURRENCY_SYMBOLS[money.currency];
    if (!symbol) return parts.map((part) => part.value).join('');
    // A symbol sits against its number (HK$388); only a code needs the space Intl puts after it.
    const at = parts.findIndex((part) => part.type === 'currency');
    return parts
      .filter((part, index) => !(part.type === 'literal' && /^\s+$/.test(part.value) && Math.abs(index - at) === 1))
      .map((part) => (part.type === 'currency' ? symbol : part.value))
      .join('');
  });
}

/** A list formats the same few prices on every render. */
const moneyTexts = new FormattedMemo<string>(10_000);

/**
 * Reads an amount typed by a person ("880", "880.5", "1,280.00") as minor units of a currency
 * with `minorDigits` decimals; null for anything else (a sign, letters, too many decimals, or an
 * amount too large to hold exactly).
 */
export function parseMinorUnits(text: string, minorDigits: number): number | null {
  const plain = text.trim().replace(/[,\s]/g, '');
  const match = /^(\d+)(?:\.(\d*))?$/.exec(plain);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  if (fraction.length > minorDigits) return null;
  const amount = Number(whole) * 10 ** minorDigits + Number(fraction.padEnd(minorDigits, '0') || '0');
  return Number.isSafeInteger(amount) ? amount : null;
}
