/**
 * The fragment naming one tier's waitlist on an activity page. A signed-out visitor's sign-in link
 * returns to the page with it, and the waitlist then opens on that tier. A fragment, not a query,
 * so the shared cached page stays one page; kept apart from waitlist.ts so the island stays small.
 */
const PREFIX = 'waitlist-tier-';

export function waitlistAnchor(tierId: number): string {
  return `${PREFIX}${tierId}`;
}

/** The tier a location's hash ("#waitlist-tier-12") names, or null. */
export function tierOfWaitlistHash(hash: string): number | null {
  const match = new RegExp(`^#?${PREFIX}(\\d{1,15})$`).exec(hash);
  return match ? Number(match[1]) : null;
}
