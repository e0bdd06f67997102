/**
 * The end-to-end specs' typed fixtures: what no API gives (a listing fit for a journey, a show of a
 * test's own, an operator, a stock change behind the shop's back), through the e2e server's local-only
 * `POST /api/v1/dev/fixtures/{name}` (src/lib/services/platform/dev-fixtures.ts).
 */
import type { DevFixtureInput, DevFixtureName, DevFixtureOutput } from '../../src/lib/services/platform/dev-fixtures.ts';

const port = Number(process.env.E2E_PORT) || 8788;
const BASE_URL = `http://127.0.0.1:${port}`;

/** A fixture's result, with undefined where it found nothing (the server answers null), as a missing row was. */
type Found<T> = T extends null ? undefined : T;

/** Runs one fixture on the e2e server (or the server at `baseUrl`) and answers its result; a refusal throws. */
export async function fixture<Name extends DevFixtureName>(
  name: Name,
  input: DevFixtureInput<Name>,
  baseUrl = BASE_URL,
): Promise<Found<DevFixtureOutput<Name>>> {
  const response = await fetch(`${baseUrl}/api/v1/dev/fixtures/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as { data?: unknown; message?: string };
  if (!response.ok) throw new Error(`Fixture ${name} refused (${response.status}): ${body.message}`);
  return (body.data ?? undefined) as Found<DevFixtureOutput<Name>>;
}

/** A listing on sale that fits a journey, with its tier, session, activity and seller's address; undefined when none does. */
export function listingOnSale(query: DevFixtureInput<'find-listing'>, baseUrl?: string) {
  return fixture('find-listing', query, baseUrl);
}

/**
 * A show of the test's own: a copy of a seeded on-sale e-ticket listing, with its tier, in a new
 * session `daysAhead` days away with 20 tickets, so that cancelling or postponing it moves no other
 * journey's show. Its listing, to order from one ticket at a time, and its session.
 */
export async function ownShowCopy(daysAhead: number) {
  const source = await listingOnSale({
    activityStates: ['onSale', 'booking'],
    realNames: false,
    eTicket: true,
    sellerListed: true,
    orderOf: 1,
    order: 'newest',
  });
  const startsAt = Date.now() + daysAhead * 24 * 3600 * 1000;
  const session = await fixture('create-session', { activityId: source!.activityId, startsAt, endsAt: startsAt + 3 * 3600_000 });
  const tier = await fixture('copy-tier', { sessionId: session.id, fromTierId: source!.tierId });
  const listing = await fixture('copy-listing', { tierId: tier.id, fromListingId: source!.id, quantity: 20 });
  return { id: listing.id, quantity: 1, activityId: source!.activityId, tierId: tier.id, sessionId: session.id };
}
