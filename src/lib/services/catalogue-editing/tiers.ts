/**
 * A session's ticket tiers, edited from the console: names, face value (minor units of a known
 * currency) and quota. Sellers' listings offer a tier's tickets; a tier with orders or listings
 * keeps its currency and cannot be removed, and its quota never drops below what is ordered. On a
 * published show with a box office, the tier's box-office listing is made and follows it (box-office.ts).
 */
import { eq } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import { ticketTiers } from '../../db/schema.ts';
import { type TierDraft, tierProblems, tierRow } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import type { TierRecord } from './activities.ts';
import { followTier, tierBoxOfficeListing } from './box-office.ts';
import { brokeForeignKey, nextId, refuseProblems } from './records.ts';
import { editedSession } from './sessions.ts';

const knownCurrencies = (scope: StaffScope) => scope.reference.currencies.map((currency) => currency.code);

export async function addTier(scope: StaffScope, sessionId: number, draft: TierDraft): Promise<TierRecord> {
  await editedSession(scope.db, sessionId);
  refuseProblems(tierProblems(draft, { currencies: knownCurrencies(scope), sold: 0 }));
  const row = { id: await nextId(scope.db, ticketTiers), sessionId, ...tierRow(draft) };
  const { inserted } = await batch(scope.db, {
    inserted: scope.db.insert(ticketTiers).values(row).returning(),
    boxOffice: tierBoxOfficeListing(scope.db, row.id, scope.now),
    audit: auditEntry(scope, { action: 'tier.create', subjectType: 'tier', subjectId: row.id, before: null, after: row }),
  });
  return inserted[0];
}

async function editedTier(scope: StaffScope, tierId: number) {
  const [row] = await scope.db.select({ sessionId: ticketTiers.sessionId }).from(ticketTiers).where(eq(ticketTiers.id, tierId));
  if (!row) throw new DomainError('ticket_category_not_found');
  const { session } = await editedSession(scope.db, row.sessionId);
  const { sold, listed, ...before } = session.tiers.find((tier) => tier.id === tierId)!;
  return { before, sold, inUse: sold > 0 || listed > 0 };
}

export async function updateTier(scope: StaffScope, tierId: number, draft: TierDraft): Promise<TierRecord> {
  const { before, sold, inUse } = await editedTier(scope, tierId);
  refuseProblems(tierProblems(draft, { currencies: knownCurrencies(scope), sold }));
  const row = tierRow(draft);
  // Listings and orders are priced in the tier's currency.
  if (inUse && row.currency !== before.currency) throw new DomainError('tier_in_use', {}, 'currency');
  const { updated } = await batch(scope.db, {
    updated: scope.db.update(ticketTiers).set(row).where(eq(ticketTiers.id, tierId)).returning(),
    followed: followTier(scope.db, tierId, row.faceValue, row.quota - before.quota),
    boxOffice: tierBoxOfficeListing(scope.db, tierId, scope.now),
    audit: auditEntry(scope, { action: 'tier.update', subjectType: 'tier', subjectId: tierId, before, after: { ...before, ...row } }),
  });
  return updated[0];
}

export async function removeTier(scope: StaffScope, tierId: number): Promise<void> {
  const { before, inUse } = await editedTier(scope, tierId);
  if (inUse) throw new DomainError('tier_in_use');
  try {
    await batch(scope.db, {
      removed: scope.db.delete(ticketTiers).where(eq(ticketTiers.id, tierId)),
      audit: auditEntry(scope, { action: 'tier.remove', subjectType: 'tier', subjectId: tierId, before, after: null }),
    });
  } catch (error) {
    if (brokeForeignKey(error)) throw new DomainError('tier_in_use');
    throw error;
  }
}
