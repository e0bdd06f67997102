/**
 * The catalogue's version (table catalogue_version, bumped by the triggers of migration 0012): part
 * of every shared page's cache key, so a write that changes what browse pages show retires their
 * cached copies for the very next request. One primary-key read per shared page request.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { catalogueVersion as versionTable } from '../db/schema.ts';

export async function catalogueVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: versionTable.version }).from(versionTable).where(eq(versionTable.id, 1));
  return row?.version ?? 0;
}
