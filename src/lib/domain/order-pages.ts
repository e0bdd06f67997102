/**
 * Pure rules of the order pages. The list's URL (`/orders?tab=&keyword=&page=`): every choice
 * round-trips through it, so a list can be shared, reloaded and paged without script; reading is
 * lenient, a value the page cannot use falls back to its default instead of failing the page.
 * Then the time left to pay and the way an order's own times read.
 */
import { ORDER_KEYWORD_MAX_LENGTH, ORDER_TIME_ZONE } from '../config/orders.ts';
import { MAX_ID } from '../config/request.ts';
import { dateFormat } from './intl-cache.ts';
import { ORDER_TABS, type OrderStatus, type OrderTab } from './order-state.ts';
import type { MessageKey } from '../i18n/keys.ts';

export interface OrderListQuery {
  tab: OrderTab;
  /** Order number or show name; '' for no search. */
  keyword: string;
  /** 1-based. */
  page: number;
}

/** Beyond this a page number is a typo, not a page: it reads as page 1. */
const MAX_PAGE = 1000;

function isTab(value: string | null): value is OrderTab {
  return value !== null && (ORDER_TABS as readonly string[]).includes(value);
}

/** The list's tab, search text and page from its query string; unusable values read as the defaults. */
export function parseOrderListQuery(params: URLSearchParams): OrderListQuery {
  const tab = params.get('tab');
  const rawPage = params.get('page') ?? '';
  const page = /^\d{1,4}$/.test(rawPage) ? Number(rawPage) : 1;
  // Whitespace runs collapse so that a pasted order number or name matches as typed.
  const keyword = [...(params.get('keyword') ?? '').trim().replace(/\s+/g, ' ')].slice(0, ORDER_KEYWORD_MAX_LENGTH).join('').trim();
  return { tab: isTab(tab) ? tab : 'all', keyword, page: page >= 1 && page <= MAX_PAGE ? page : 1 };
}

/** The query string of a list view ('' for the default view), leaving out default values. */
export function orderListSearch(query: OrderListQuery): string {
  const params = new URLSearchParams();
  if (query.tab !== 'all') params.set('tab', query.tab);
  if (query.keyword) params.set('keyword', query.keyword);
  if (query.page > 1) params.set('page', String(query.page));
  const search = params.toString();
  return search ? `?${search}` : '';
}

/** An order id from a URL (path segment or query), or null when it cannot be one: the pages answer 404. */
export function parseOrderId(raw: string | null | undefined): number | null {
  if (!raw || !/^[1-9]\d{0,9}$/.test(raw)) return null;
  const id = Number(raw);
  return id <= MAX_ID ? id : null;
}

/** How many pages `total` orders fill (at least one, so an empty list is "page 1 of 1"). */
export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** "mm:ss" (or "h:mm:ss") left until a deadline, never negative. */
export function formatTimeLeft(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mmss = `${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
  return h > 0 ? `${h}:${mmss}` : mmss;
}

/** An order's own time (placed, paid, deadline) in ORDER_TIME_ZONE with its offset: `2026/11/21 14:05 GMT+8`. */
export function formatOrderTime(ms: number, locale: string): string {
  return dateFormat(locale, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZone: ORDER_TIME_ZONE,
    timeZoneName: 'short',
  }).format(ms);
}

/**
 * The catalogue keys of an order's status as shown: its tab's name, then, while unpaid, the payment
 * sub-state (SPEC.md section 6: user paying; user paid and platform confirming).
 */
export function statusKeys(status: OrderStatus, paymentSubstatus: 'paying' | 'confirming' | null): MessageKey[] {
  const keys: MessageKey[] = [`orders.tab.${status}`];
  if (status === 'pending_payment' && paymentSubstatus) keys.push(`orders.substatus.${paymentSubstatus}`);
  return keys;
}
