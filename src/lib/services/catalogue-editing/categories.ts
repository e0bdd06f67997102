/** Categories, edited from the console: their slug (the listing's path), names in three scripts, order. */
import { and, asc, eq, ne } from 'drizzle-orm';
import { batch } from '../../data/batch.ts';
import type { Db } from '../../data/client.ts';
import { categories } from '../../db/schema.ts';
import { type CategoryDraft, categoryProblems, categoryRow } from '../../domain/catalogue-drafts.ts';
import { DomainError } from '../../domain/errors.ts';
import type { StaffScope } from '../platform/scope.ts';
import { auditEntry } from '../staff/audit.ts';
import { nextId, refuseProblems } from './records.ts';

export type CategoryRecord = typeof categories.$inferSelect;

export function categoryList(db: Db): Promise<CategoryRecord[]> {
  return db.select().from(categories).orderBy(asc(categories.sort), asc(categories.id));
}

export async function categoryRecord(db: Db, id: number): Promise<CategoryRecord> {
  const [category] = await db.select().from(categories).where(eq(categories.id, id));
  if (!category) throw new DomainError('category_not_found');
  return category;
}

async function checked(db: Db, draft: CategoryDraft, id: number | null) {
  refuseProblems(categoryProblems(draft));
  const same = eq(categories.slug, draft.slug);
  const [taken] = await db
    .select({ id: categories.id })
    .from(categories)
    .where(id === null ? same : and(same, ne(categories.id, id)));
  if (taken) throw new DomainError('category_slug_taken', {}, 'slug');
  return categoryRow(draft);
}

/** A category writes the reference tables' version too (migration 0013): every worker reads the new list. */
export async function createCategory(scope: StaffScope, draft: CategoryDraft): Promise<CategoryRecord> {
  const row = { id: await nextId(scope.db, categories), ...(await checked(scope.db, draft, null)) };
  const { inserted } = await batch(scope.db, {
    inserted: scope.db.insert(categories).values(row).returning(),
    audit: auditEntry(scope, { action: 'category.create', subjectType: 'category', subjectId: row.id, before: null, after: row }),
  });
  return inserted[0];
}

export async function updateCategory(scope: StaffScope, id: number, draft: CategoryDraft): Promise<CategoryRecord> {
  const before = await categoryRecord(scope.db, id);
  const row = await checked(scope.db, draft, id);
  const { updated } = await batch(scope.db, {
    updated: scope.db.update(categories).set(row).where(eq(categories.id, id)).returning(),
    audit: auditEntry(scope, { action: 'category.update', subjectType: 'category', subjectId: id, before, after: { id, ...row } }),
  });
  return updated[0];
}
