/**
 * The paged list of a category or search page (SPEC.md shared widgets): the server renders the
 * first page of cards as children; this island appends the next pages as the "more" link scrolls
 * into view (or is pressed), and pull-to-refresh reloads the list, closing PULL_TO_REFRESH_CLOSE_MS
 * after it finished. A failed call shows its message as a toast and the network-error view with a
 * refresh button (SPEC.md section 8). Without JavaScript the "more" link opens the next page.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ApiClientError, listingPage } from '../../lib/browser/api-client.ts';
import { PULL_TO_REFRESH_CLOSE_MS } from '../../lib/config/browse.ts';
import type { ImageDelivery } from '../../lib/domain/poster-images.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import FeedCard from './FeedCard.tsx';
import './listing.css';

interface Props {
  /** The server-rendered cards of the first page shown. */
  children?: ReactNode;
  /** The listing's path and query without its page (`/concerts?city=341`), as the API's listing route takes it. */
  listingPath: string;
  /** Whether the listing is a search (the call then carries sceneType and ignoreCityId). */
  search: boolean;
  /** The page the server rendered, and how many there are. */
  page: number;
  totalPage: number;
  /** The listing's URL (locale prefix included) without a page, for the no-JavaScript "more" link. */
  href: string;
  /** Locale prefix of links (`/zh-HK` or empty). */
  prefix: string;
  messages: Messages;
  /** How this deployment serves poster variants (src/lib/domain/poster-images.ts). */
  imageDelivery: ImageDelivery;
}

type Load = 'idle' | 'loading' | 'failed';
type Pull = { state: 'idle' } | { state: 'pulling'; distance: number } | { state: 'refreshing' } | { state: 'done' };
type Card = Awaited<ReturnType<typeof listingPage>>['result'][number];

/** Height of the pull indicator, in pixels, that triggers a refresh, and the most it stretches (half the drag). */
const PULL_TRIGGER_PX = 40;
const PULL_MAX_PX = 80;
const TOAST_MS = 3000;

function withPage(href: string, page: number): string {
  return `${href}${href.includes('?') ? '&' : '?'}page=${page}`;
}

function failureMessage(error: unknown, m: Messages): string {
  if (error instanceof ApiClientError && error.kind === 'http') return error.message;
  if (error instanceof ApiClientError && error.kind === 'timeout') return format(m, 'error.timeout');
  return format(m, 'error.network');
}

export default function ListingFeed({ children, listingPath, search, page, totalPage, href, prefix, messages: m, imageDelivery }: Props) {
  /** Cards fetched by the island; after a refresh they replace the server-rendered ones. */
  const [cards, setCards] = useState<Card[]>([]);
  const [replaced, setReplaced] = useState(false);
  const [lastPage, setLastPage] = useState(page);
  const [pages, setPages] = useState(totalPage);
  const [load, setLoad] = useState<Load>('idle');
  const [pull, setPull] = useState<Pull>({ state: 'idle' });
  const [toast, setToast] = useState<string | null>(null);
  const more = useRef<HTMLAnchorElement>(null);
  const retry = useRef<() => void>(() => undefined);

  const fetchPage = useCallback(
    (pageIndex: number) =>
      listingPage(listingPath, { page: String(pageIndex), ...(search ? { sceneType: 'searchV2', ignoreCityId: 'true' } : {}) }),
    [listingPath, search],
  );

  const fail = useCallback(
    (error: unknown, again: () => void) => {
      retry.current = again;
      setLoad('failed');
      setToast(failureMessage(error, m));
    },
    [m],
  );

  const loadNext = useCallback(async () => {
    if (load !== 'idle' || lastPage >= pages) return;
    setLoad('loading');
    try {
      const list = await fetchPage(lastPage + 1);
      setCards((shown) => [...shown, ...list.result]);
      setLastPage(list.pageIndex);
      setPages(list.totalPage);
      setLoad('idle');
    } catch (error) {
      // Back to idle: the "more" link returns where the error view was, in view, and loads again.
      fail(error, () => setLoad('idle'));
    }
  }, [fail, fetchPage, lastPage, load, pages]);

  const refresh = useCallback(async () => {
    setPull({ state: 'refreshing' });
    setLoad('loading');
    try {
      const list = await fetchPage(page);
      setCards(list.result);
      setReplaced(true);
      setLastPage(list.pageIndex);
      setPages(list.totalPage);
      setLoad('idle');
      setPull({ state: 'done' });
    } catch (error) {
      setPull({ state: 'idle' });
      fail(error, () => void refresh());
    }
  }, [fail, fetchPage, page]);

  // Infinite scroll: the "more" link coming near the viewport loads the next page.
  useEffect(() => {
    const target = more.current;
    if (!target || load !== 'idle') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void loadNext();
      },
      { rootMargin: '200px' },
    );
    observer.observe(target);
    return () => observer.disconnect();
  }, [load, loadNext]);

  usePullToRefresh(pull, setPull, refresh);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  const pullText = {
    idle: null,
    pulling: format(m, pull.state === 'pulling' && pull.distance >= PULL_TRIGGER_PX ? 'listing.release' : 'listing.pull'),
    refreshing: format(m, 'listing.refreshing'),
    done: format(m, 'listing.refreshed'),
  }[pull.state];
  const pullHeight = pull.state === 'pulling' ? pull.distance : pull.state === 'idle' ? 0 : PULL_TRIGGER_PX;

  return (
    <div className="feed">
      <div className="feed-pull" style={{ height: pullHeight }} aria-live="polite">
        {pullText && <span>{pullText}</span>}
      </div>
      {!replaced && children}
      {cards.map((card) => (
        <FeedCard key={card.id} card={card} prefix={prefix} messages={m} imageDelivery={imageDelivery} />
      ))}
      {load === 'failed' ? (
        <div className="feed-error" role="alert">
          <p className="feed-error-title">{format(m, 'error.network')}</p>
          <p>{format(m, 'error.networkHint')}</p>
          <button type="button" onClick={() => retry.current()}>
            {format(m, 'listing.refresh')}
          </button>
        </div>
      ) : lastPage < pages ? (
        <a
          ref={more}
          className="feed-more"
          href={withPage(href, lastPage + 1)}
          aria-busy={load === 'loading'}
          onClick={(event) => {
            event.preventDefault();
            void loadNext();
          }}
        >
          {format(m, load === 'loading' ? 'listing.loading' : 'listing.more')}
        </a>
      ) : (
        <p className="feed-end">{format(m, 'listing.end')}</p>
      )}
      <div className="feed-toast" role="status">
        {toast && <span>{toast}</span>}
      </div>
    </div>
  );
}

/** Pull-to-refresh: a downward drag that starts at the top of the page, far enough, refreshes; "refreshed" shows for a moment. */
function usePullToRefresh(pull: Pull, setPull: (pull: Pull) => void, refresh: () => Promise<void>) {
  useEffect(() => {
    let startY: number | null = null;
    let distance = 0;
    const start = (event: TouchEvent) => {
      startY = window.scrollY <= 0 && event.touches.length === 1 ? event.touches[0].clientY : null;
      distance = 0;
    };
    const move = (event: TouchEvent) => {
      if (startY === null) return;
      distance = Math.min(Math.max(event.touches[0].clientY - startY, 0) / 2, PULL_MAX_PX);
      setPull(distance > 0 ? { state: 'pulling', distance } : { state: 'idle' });
    };
    const end = () => {
      if (startY === null) return;
      startY = null;
      if (distance >= PULL_TRIGGER_PX) void refresh();
      else setPull({ state: 'idle' });
    };
    window.addEventListener('touchstart', start, { passive: true });
    window.addEventListener('touchmove', move, { passive: true });
    window.addEventListener('touchend', end);
    window.addEventListener('touchcancel', end);
    return () => {
      window.removeEventListener('touchstart', start);
      window.removeEventListener('touchmove', move);
      window.removeEventListener('touchend', end);
      window.removeEventListener('touchcancel', end);
    };
  }, [refresh, setPull]);

  useEffect(() => {
    if (pull.state !== 'done') return;
    const timer = setTimeout(() => setPull({ state: 'idle' }), PULL_TO_REFRESH_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [pull, setPull]);
}
