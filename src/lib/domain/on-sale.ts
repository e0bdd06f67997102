/**
 * Which high-demand on-sale a purchase belongs to (docs/hot-on-sale.md "Per tier"): a whole
 * session, or one tier of a session that sells its other tiers normally. Each on-sale has its own
 * waiting room, its own pass and its own inventory object; a high-demand session covers all its tiers.
 */

/** A whole session's on-sale (`tierId` null), or one tier's. */
export interface OnSale {
  sessionId: number;
  tierId: number | null;
}

/** The on-sale a tier's purchase goes through: its session's when that is high demand, else its own when it is, else none. */
export function onSaleOf(session: { id: number; highDemand: boolean }, tier: { id: number; highDemand: boolean }): OnSale | null {
  if (session.highDemand) return { sessionId: session.id, tierId: null };
  if (tier.highDemand) return { sessionId: session.id, tierId: tier.id };
  return null;
}

/**
 * The on-sale whose waiting-room pass a purchase needs. None for a buyer claiming their own waitlist
 * offer (checked with the quote): its tickets were held for them from before the on-sale's line could
 * see them (docs/hot-on-sale.md "Returned tickets"), so the claim takes nothing the line waits for.
 */
export function onSaleNeedingPass(onSale: OnSale | null, claimsOffer: boolean): OnSale | null {
  return claimsOffer ? null : onSale;
}

export function sameOnSale(a: OnSale | null, b: OnSale | null): boolean {
  return a !== null && b !== null && a.sessionId === b.sessionId && a.tierId === b.tierId;
}

/** The on-sale's waiting room's name: a session's is its id (as before tiers had rooms), a tier's is prefixed. */
export function waitingRoomName(onSale: OnSale): string {
  return onSale.tierId === null ? String(onSale.sessionId) : `tier:${onSale.tierId}`;
}

/** The on-sale's inventory object's name: one per session, one per high-demand tier, found by name from any worker. */
export function inventoryObjectName(onSale: OnSale): string {
  return onSale.tierId === null ? `session:${onSale.sessionId}` : `tier:${onSale.tierId}`;
}

/** The query a waiting page's URL names its tier's on-sale by (none: the session's). */
export const WAITING_ROOM_TIER_PARAM = 'tier';

/**
 * The on-sale a waiting page's URL names: its session's, or with `?tier=` that tier's own. Null when
 * the tier is not an id, which no room has.
 */
export function onSaleOfPage(sessionId: number, query: URLSearchParams): OnSale | null {
  const tier = query.get(WAITING_ROOM_TIER_PARAM);
  if (tier === null) return { sessionId, tierId: null };
  return /^[1-9]\d{0,9}$/.test(tier) ? { sessionId, tierId: Number(tier) } : null;
}

/** The buyer's choices a waiting page carries, as the query of the order confirmation it sends them back to: without the room's tier. */
export function choicesQuery(waitingPage: URLSearchParams): string {
  const query = new URLSearchParams(waitingPage);
  query.delete(WAITING_ROOM_TIER_PARAM);
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The query to send a buyer to an on-sale's waiting page with: the choices they carry (the order
 * confirmation's, which the room sends them back to) and the tier of a tier's own on-sale, no other.
 */
export function waitingPageQuery(onSale: OnSale, choices: URLSearchParams): string {
  const query = new URLSearchParams(choices);
  if (onSale.tierId === null) query.delete(WAITING_ROOM_TIER_PARAM);
  else query.set(WAITING_ROOM_TIER_PARAM, String(onSale.tierId));
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}
