/**
 * The marketplace's staff: their roles and what each role may do. The console's pages and the
 * operator API ask `allows` with the permission a screen or route needs; nothing else decides it.
 */

/** Operators run everything; editors the catalogue and the storefront (no money); customer service reads orders. */
export const STAFF_ROLES = ['operator', 'editor', 'customer_service'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

/** What a screen or route needs. */
export type StaffPermission =
  /** Any staff member: the console's home. */
  | 'console'
  /** Venues, artists, categories, activities, sessions, tiers, posters: draft, preview, publish. */
  | 'catalogue'
  /** Home banners, hot searches, pop-up boxes, coupon campaigns, lotteries. */
  | 'storefront'
  /** Sale times, high demand, waiting rooms, cancelling and postponing (refunds: money). */
  | 'on_sale'
  /** Exchange rates: the prices buyers pay in their currency. */
  | 'rates'
  /** Inviting staff and changing their roles. */
  | 'staff'
  /** Reading the audit log. */
  | 'audit'
  /** Reading buyers' orders. */
  | 'orders'
  /** Deciding a real-name ticket's change of attendee. */
  | 'attendee_changes'
  /** Messages that failed their last delivery try. */
  | 'messages';

const GRANTS: Record<StaffRole, readonly StaffPermission[]> = {
  operator: ['console', 'catalogue', 'storefront', 'on_sale', 'rates', 'staff', 'audit', 'orders', 'attendee_changes', 'messages'],
  editor: ['console', 'catalogue', 'storefront'],
  customer_service: ['console', 'orders', 'attendee_changes'],
};

/** Whether someone with these roles may do what the permission covers. */
export function allows(roles: readonly StaffRole[], permission: StaffPermission): boolean {
  return roles.some((role) => GRANTS[role].includes(permission));
}

export function isStaffRole(value: string): value is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(value);
}
