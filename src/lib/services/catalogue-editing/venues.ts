/** Venues, edited from the console: names in three scripts, address, city, coordinates and map link. */
import { asc, eq } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { venues } from '../../db/schema.ts';
import { type VenueDraft, venueProblems, venueRow } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { nextId, refuseProblems, requireCity } from './records.ts';

export type VenueRecord = typeof venues.$inferSelect;

/** Every venue, or a city's, by English name. */
export function venueList(db: Db, cityId: number | null): Promise<VenueRecord[]> {
  const query = db.select().from(venues);
  return (cityId === null ? query : query.where(eq(venues.cityId, cityId))).orderBy(asc(venues.nameEn), asc(venues.id));
}

export async function venueRecord(db: Db, id: number): Promise<VenueRecord> {
  const [venue] = await db.select().from(venues).where(eq(venues.id, id));
  if (!venue) throw new DomainError('venue_not_found');
  return venue;
}

function checked(scope: StaffScope, draft: VenueDraft) {
  refuseProblems(venueProblems(draft));
  requireCity(scope, draft.cityId);
  return venueRow(draft);
}

export async function createVenue(scope: StaffScope, draft: VenueDraft): Promise<VenueRecord> {
  const row = { id: await nextId(scope.db, venues), ...checked(scope, draft) };
  const { inserted } = await batch(scope.db, {
    inserted: scope.db.insert(venues).values(row).returning(),
    audit: auditEntry(scope, { action: 'venue.create', subjectType: 'venue', subjectId: row.id, before: null, after: row }),
  });
  return inserted[0];
}

export async function updateVenue(scope: StaffScope, id: number, draft: VenueDraft): Promise<VenueRecord> {
  const before = await venueRecord(scope.db, id);
  const row = checked(scope, draft);
  const { updated } = await batch(scope.db, {
    updated: scope.db.update(venues).set(row).where(eq(venues.id, id)).returning(),
    audit: auditEntry(scope, { action: 'venue.update', subjectType: 'venue', subjectId: id, before, after: { id, ...row } }),
  });
  return updated[0];
}
