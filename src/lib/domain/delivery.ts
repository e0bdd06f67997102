/** The ways tickets reach a buyer, and which of them need someone named to collect them. */

export const DELIVERY_TYPES = ['e_ticket', 'on_site', 'self_pickup', 'courier'] as const;
export type DeliveryType = (typeof DELIVERY_TYPES)[number];
/** Delivery types that need the name and phone of whoever collects the tickets. */
export const TAKER_DELIVERY_TYPES: readonly DeliveryType[] = ['on_site', 'self_pickup'];
