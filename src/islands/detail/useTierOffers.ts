/**
 * The offers of the picker's tiers: the page's own for the first tier, the others from the spec's
 * `POST /api/v8/tickets` (a read) when picked. Offers fetched are kept, so going back is instant.
 */
import { useEffect, useRef, useState } from 'react';
import { api, ApiClientError, callOptions, unwrap } from '../../lib/browser/api-client.ts';
import { BUY_TYPE_DIRECT, DIRECT_BUY } from '../../lib/domain/ticket-offer.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { TicketOffer } from '../../lib/services/catalogue/ticket-offers.ts';

export type Load = { state: 'ready' } | { state: 'loading' } | { state: 'error'; message: string };

export function useTierOffers(activityId: number, tierId: number, initial: { tierId: number; offer: TicketOffer }, m: Messages) {
  const [offers, setOffers] = useState<Record<number, TicketOffer>>({ [initial.tierId]: initial.offer });
  const [load, setLoad] = useState<Load>({ state: 'ready' });
  const [attempt, setAttempt] = useState(0);

  // Tiers whose offer came from the API in this page view: the page's own offer may come from the
  // shared edge cache, so stock and prices are asked for again once, while the page's stay on screen.
  const fetched = useRef(new Set<number>());

  // Runs when the tier changes (or on retry).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fetch per tier chosen or retry asked for; the props are fixed for the page, and reading offers must not refetch when it fills.
  useEffect(() => {
    if (fetched.current.has(tierId)) return;
    const shown = offers[tierId];
    const controller = new AbortController();
    if (!shown) setLoad({ state: 'loading' });
    unwrap(
      api.v8.tickets.$post(
        { json: { b2c: true, eventId: activityId, ticketCategoryId: tierId, buyType: BUY_TYPE_DIRECT } },
        callOptions({ signal: controller.signal }),
      ),
    )
      .then((list) => {
        const direct = list.find((offer) => offer.type === DIRECT_BUY);
        if (!direct) throw new ApiClientError('http', format(m, 'detail.picker.noListings'));
        fetched.current.add(tierId);
        setOffers((known) => ({ ...known, [tierId]: direct }));
        setLoad({ state: 'ready' });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const answered = error instanceof ApiClientError && error.kind === 'http';
        // Unreachable, the page's own offer stays as shown (checkout checks stock again); an answer, such as none left, replaces it.
        if (shown && !answered) return;
        setLoad({ state: 'error', message: answered ? error.message : format(m, 'detail.picker.failed') });
      });
    return () => controller.abort();
  }, [tierId, attempt]);

  return { offer: offers[tierId], load, retry: () => setAttempt((n) => n + 1) };
}
