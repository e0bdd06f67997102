/** Artists, edited from the console: names in three scripts and the pinyin search also matches. */
import { asc, eq } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { artists } from '../../db/schema.ts';
import { type ArtistDraft, artistProblems, artistRow } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { nextId, refuseProblems } from './records.ts';

export type ArtistRecord = typeof artists.$inferSelect;

export function artistList(db: Db): Promise<ArtistRecord[]> {
  return db.select().from(artists).orderBy(asc(artists.nameEn), asc(artists.id));
}

export async function artistRecord(db: Db, id: number): Promise<ArtistRecord> {
  const [artist] = await db.select().from(artists).where(eq(artists.id, id));
  if (!artist) throw new DomainError('artist_not_found');
  return artist;
}

export async function createArtist(scope: StaffScope, draft: ArtistDraft): Promise<ArtistRecord> {
  refuseProblems(artistProblems(draft));
  const row = { id: await nextId(scope.db, artists), ...artistRow(draft) };
  const { inserted } = await batch(scope.db, {
    inserted: scope.db.insert(artists).values(row).returning(),
    audit: auditEntry(scope, { action: 'artist.create', subjectType: 'artist', subjectId: row.id, before: null, after: row }),
  });
  return inserted[0];
}

/** A changed name reaches search at once: the index's triggers rewrite the artist's activities (migration 0018). */
export async function updateArtist(scope: StaffScope, id: number, draft: ArtistDraft): Promise<ArtistRecord> {
  refuseProblems(artistProblems(draft));
  const before = await artistRecord(scope.db, id);
  const row = artistRow(draft);
  const { updated } = await batch(scope.db, {
    updated: scope.db.update(artists).set(row).where(eq(artists.id, id)).returning(),
    audit: auditEntry(scope, { action: 'artist.update', subjectType: 'artist', subjectId: id, before, after: { id, ...row } }),
  });
  return updated[0];
}
