/**
 * The ticket picker: session, tier, seller listing and quantity, with the all-in total (service fee
 * included, as checkout charges it) in the request currency. The server renders it with the first tier's offer already in place, and its last part is
 * a plain GET form to the order confirmation, so the default choice can be bought before hydration.
 * Other tiers' offers come from the spec's `POST /api/v8/tickets` when picked.
 */
import { useState } from 'react';
import { SERVICE_FEE_BASIS_POINTS } from '../../lib/config/orders.ts';
import { formatMoney } from '../../lib/domain/money.ts';
import { WAITING_ROOM_TIER_PARAM } from '../../lib/domain/on-sale.ts';
import { allInAmount } from '../../lib/domain/pricing.ts';
import { clampQuantity, quantitiesOf } from '../../lib/domain/ticket-offer.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { TicketGroupInfo, TicketOffer } from '../../lib/services/catalogue/ticket-offers.ts';
import { useTierOffers, type Load } from './useTierOffers.ts';

export interface PickerTier {
  id: number;
  specification: string;
  hasTicket: boolean;
  lowPriceView: string | null;
  /**
   * A tier on sale as high demand of its own (its session is not): its buyers go to its waiting room,
   * this page with its `tier` query, which sends them on to the order confirmation.
   */
  waitingRoomUrl: string | null;
}

export interface PickerSession {
  id: number;
  label: string;
  hasTicket: boolean;
  /** Tickets one account may buy of the session, paid or awaiting payment: no order is for more. */
  accountTicketCap: number;
  /** A high-demand session's buyers go to its waiting room (with the same choices), which sends them on to the order confirmation. */
  waitingRoomUrl: string | null;
  tiers: PickerTier[];
}

interface Props {
  activityId: number;
  locale: string;
  messages: Messages;
  sessions: PickerSession[];
  initial: { sessionId: number; tierId: number; offer: TicketOffer };
  /** The activity's per-order maximum ("Limit {n} Ticket(s) per Order"). */
  numMax: number;
  /** The order confirmation page, with the page's locale prefix. */
  orderUrl: string;
}

function listingLabel(group: TicketGroupInfo, m: Messages): string {
  const parts = [
    format(m, 'detail.picker.each', { price: group.salePriceView }),
    format(m, `detail.seating.${group.seating}`),
    group.deliveryTypes.map((type) => format(m, `detail.delivery.${type}`)).join(', '),
  ];
  if (group.tip) parts.push(group.tip);
  return parts.join(' · ');
}

export default function TicketPicker({ activityId, locale, messages: m, sessions, initial, numMax, orderUrl }: Props) {
  const [sessionId, setSessionId] = useState(initial.sessionId);
  const [tierId, setTierId] = useState(initial.tierId);
  const [listingId, setListingId] = useState<number | null>(null);
  const [quantity, setQuantity] = useState(initial.offer.selectNumMin);

  const { offer, load, retry } = useTierOffers(activityId, tierId, initial, m);

  const session = sessions.find((s) => s.id === sessionId) ?? sessions[0];
  // A GET form's action loses its own query: a tier's room is named by a field of the form.
  const tierRoom = session.waitingRoomUrl ? null : (session.tiers.find((t) => t.id === tierId)?.waitingRoomUrl ?? null);
  const groups = offer?.ticketGroupInfoList ?? [];
  const group = groups.find((g) => g.ticketGroup.id === listingId) ?? groups[0];
  const range = group ? { min: group.minQuantity, max: Math.min(group.maxQuantity, session.accountTicketCap) } : null;
  const count = range ? clampQuantity(quantity, range) : 0;
  const total =
    group && offer
      ? formatMoney({ amount: allInAmount(group.ticketGroup.salePrice, count), currency: group.currency }, locale, offer.minorDigits)
      : null;

  function pickSession(next: PickerSession) {
    setSessionId(next.id);
    const tier = next.tiers.find((t) => t.hasTicket);
    if (tier) setTierId(tier.id);
  }

  return (
    <div className="picker">
      <fieldset>
        <legend>{format(m, 'detail.picker.session')}</legend>
        <div className="options">
          {sessions.map((s) => (
            <label key={s.id} className="option">
              <input
                type="radio"
                name="session"
                value={s.id}
                checked={s.id === session.id}
                disabled={!s.hasTicket}
                onChange={() => pickSession(s)}
              />
              <span>{s.label}</span>
              {!s.hasTicket && <span className="note">{format(m, 'detail.picker.soldOut')}</span>}
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset>
        <legend>{format(m, 'detail.picker.tier')}</legend>
        <div className="options">
          {session.tiers.map((t) => (
            <label key={t.id} className="option">
              <input
                type="radio"
                name="tier"
                value={t.id}
                checked={t.id === tierId}
                disabled={!t.hasTicket}
                onChange={() => setTierId(t.id)}
              />
              <span>{t.specification}</span>
              <span className="note">{t.hasTicket && t.lowPriceView ? `${t.lowPriceView}+` : format(m, 'detail.picker.soldOut')}</span>
            </label>
          ))}
        </div>
      </fieldset>

      <form method="get" action={session.waitingRoomUrl ?? tierRoom ?? orderUrl}>
        {tierRoom && <input type="hidden" name={WAITING_ROOM_TIER_PARAM} value={tierId} />}
        <Listings messages={m} load={load} groups={groups} chosen={group} onChoose={setListingId} onRetry={retry} />

        <div className="quantity">
          <label htmlFor="ticket-quantity">{format(m, 'detail.picker.quantity')}</label>
          <select
            id="ticket-quantity"
            name="quantity"
            value={count}
            disabled={!range}
            onChange={(event) => setQuantity(Number(event.target.value))}
            aria-describedby="ticket-limit"
          >
            {range &&
              quantitiesOf(range).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
          </select>
          <p id="ticket-limit" className="limit">
            {format(m, 'detail.picker.limit', { count: numMax })}
            <br />
            {format(m, 'detail.picker.accountCap', { count: session.accountTicketCap })}
          </p>
        </div>

        <div className="checkout" data-bottom-bar="">
          <p className="total">
            <span id="ticket-total-label">{format(m, 'detail.picker.total')}</span>{' '}
            <output aria-labelledby="ticket-total-label" aria-live="polite">
              {total ?? '—'}
            </output>
          </p>
          <button type="submit" className="buy" disabled={!group || load.state !== 'ready'}>
            {format(m, 'detail.picker.buy')}
          </button>
        </div>
      </form>
    </div>
  );
}

interface ListingsProps {
  messages: Messages;
  load: Load;
  groups: TicketGroupInfo[];
  chosen: TicketGroupInfo | undefined;
  onChoose: (listingId: number) => void;
  onRetry: () => void;
}

/** The tier's seller listings to choose from (prices all-in), or why there are none to show. */
function Listings({ messages: m, load, groups, chosen, onChoose, onRetry }: ListingsProps) {
  return (
    <fieldset aria-busy={load.state === 'loading'}>
      <legend>{format(m, 'detail.picker.listings')}</legend>
      <p className="all-in">{format(m, 'detail.picker.allIn', { percent: SERVICE_FEE_BASIS_POINTS / 100 })}</p>
      {load.state === 'loading' && <p role="status">{format(m, 'detail.picker.loading')}</p>}
      {load.state === 'error' && (
        <div role="alert" className="error">
          <p>{load.message}</p>
          <button type="button" onClick={onRetry}>
            {format(m, 'detail.picker.retry')}
          </button>
        </div>
      )}
      {load.state === 'ready' && groups.length === 0 && <p>{format(m, 'detail.picker.noListings')}</p>}
      {load.state === 'ready' && groups.length > 0 && (
        <div className="listings">
          {groups.map((g) => (
            <label key={g.ticketGroup.id} className="listing">
              <input
                type="radio"
                name="listingId"
                value={g.ticketGroup.id}
                checked={g === chosen}
                onChange={() => onChoose(g.ticketGroup.id)}
              />
              <span className="visually-hidden">{listingLabel(g, m)}</span>
              <span className="price" aria-hidden="true">
                {g.salePriceView}
              </span>
              <span className="face" aria-hidden="true">
                {format(m, 'detail.picker.faceValue', { price: g.originPriceView })}
              </span>
              <span className="tags" aria-hidden="true">
                <span>{format(m, `detail.seating.${g.seating}`)}</span>
                {g.deliveryTypes.map((type) => (
                  <span key={type}>{format(m, `detail.delivery.${type}`)}</span>
                ))}
              </span>
              {g.tip && (
                <span className="tip" aria-hidden="true">
                  {g.tip}
                </span>
              )}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}
