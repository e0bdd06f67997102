/**
 * An activity with everything its detail and its ticket offers are made of, read in one batch, and
 * the pricing that shows stored prices (each in its listing's currency) in the request currency.
 */
import { UNPUBLISHED_STATUS } from '../../domain/catalogue-drafts.ts';
import { and, asc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../data/client.ts';
import { prefixedTable } from '../../data/batch-columns.ts';
import { type Bound, compiledSelect } from '../../data/compiled-select.ts';
import { read, readOne, type Read } from '../../data/read-together.ts';
import { activities, activitySessions, artists, type categories, type cities, listings, ticketTiers, venues } from '../../db/schema.ts';
import { availability, sessionOpen, ticketsAvailable, type Availability } from '../../domain/availability.ts';
import { convert, formatMoney, type CurrencyTable, type Money } from '../../domain/money.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import type { Locale } from '../../i18n/locales.ts';
import type { RequestScope } from '../platform/scope.ts';

export type ActivityRow = typeof activities.$inferSelect;
export type ListingRow = typeof listings.$inferSelect;
export type TierRow = typeof ticketTiers.$inferSelect;
export type SessionRow = typeof activitySessions.$inferSelect;

interface Names {
  nameEn: string;
  nameZhHant: string;
  nameZhHans: string;
}

/** The names of a left-joined row: null when the join found none. */
function joinedNames(row: { [K in keyof Names]: string | null }): Names | null {
  const { nameEn, nameZhHant, nameZhHans } = row;
  return nameEn !== null && nameZhHant !== null && nameZhHans !== null ? { nameEn, nameZhHant, nameZhHans } : null;
}

interface LoadedActivity {
  activity: ActivityRow;
  venue: typeof venues.$inferSelect;
  /** Null when the activity names no artist. */
  artist: Names | null;
  city: typeof cities.$inferSelect;
  category: typeof categories.$inferSelect;
}

/** What formatting prices in the request currency needs. */
export interface Pricing {
  table: CurrencyTable;
  currency: string;
  digits: number;
  locale: Locale;
}

export function pricing(table: CurrencyTable, ctx: RequestContext): Pricing {
  return { table, currency: ctx.currency, digits: table.get(ctx.currency)?.minorDigits ?? 2, locale: ctx.locale };
}

export function inRequestCurrency(money: Money, p: Pricing): Money {
  return convert(money, p.currency, p.table);
}

export function view(money: Money, p: Pricing): string {
  return formatMoney(money, p.locale, p.digits);
}

type ActivityValues = { activityId: number };

const activitySelect = (db: Db, activityId: Bound<number>) =>
  db
    .select({
      activity: activities,
      venue: prefixedTable('venue', venues),
      artist: {
        nameEn: sql<string | null>`${artists.nameEn}`.as('artist.name_en'),
        nameZhHant: sql<string | null>`${artists.nameZhHant}`.as('artist.name_zh_hant'),
        nameZhHans: sql<string | null>`${artists.nameZhHans}`.as('artist.name_zh_hans'),
      },
    })
    .from(activities)
    .innerJoin(venues, eq(venues.id, activities.venueId))
    .leftJoin(artists, eq(artists.id, activities.artistId))
    .where(eq(activities.id, activityId));

const sessionsSelect = (db: Db, activityId: Bound<number>) =>
  db.select().from(activitySessions).where(eq(activitySessions.activityId, activityId)).orderBy(asc(activitySessions.startsAt));

const tiersSelect = (db: Db, activityId: Bound<number>) =>
  db
    .select({ tier: ticketTiers })
    .from(ticketTiers)
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(eq(activitySessions.activityId, activityId))
    .orderBy(asc(ticketTiers.sort), asc(ticketTiers.id));

const listingsSelect = (db: Db, activityId: Bound<number>) =>
  db
    .select({ listing: listings })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(and(eq(activitySessions.activityId, activityId), ne(listings.status, 'withdrawn')));

// Read by every rendered detail page: the text of its four selects is built once (data/compiled-select.ts).
const activityStatement = compiledSelect<ActivityValues, ReturnType<typeof activitySelect>>(['activityId'], (db, { activityId }) =>
  activitySelect(db, activityId),
);
const sessionsStatement = compiledSelect<ActivityValues, ReturnType<typeof sessionsSelect>>(['activityId'], (db, { activityId }) =>
  sessionsSelect(db, activityId),
);
const tiersStatement = compiledSelect<ActivityValues, ReturnType<typeof tiersSelect>>(['activityId'], (db, { activityId }) =>
  tiersSelect(db, activityId),
);
const listingsStatement = compiledSelect<ActivityValues, ReturnType<typeof listingsSelect>>(['activityId'], (db, { activityId }) =>
  listingsSelect(db, activityId),
);

/** An activity with its venue, city and category, its sessions, tiers and the listings that are not withdrawn, in one batch. */
/** `drafts`: an unpublished activity too, for staff previewing it (never a buyer's read). */
function activityRead(scope: RequestScope, id: number, drafts: boolean): Read<Loaded | null> {
  const { db, reference, currencies: table } = scope;
  const values = { activityId: id };
  return read(
    {
      activity: activityStatement(db, values),
      sessions: sessionsStatement(db, values),
      tiers: tiersStatement(db, values),
      listings: listingsStatement(db, values),
    },
    ({ activity: [row], sessions: sessionRows, tiers, listings }) => {
      const city = row && reference.cities.find((each) => each.id === row.activity.cityId);
      const category = row && reference.categories.find((each) => each.id === row.activity.categoryId);
      if (!row || !city || !category || (row.activity.status === UNPUBLISHED_STATUS && !drafts)) return null;
      return {
        ...row,
        artist: joinedNames(row.artist),
        city,
        category,
        sessionRows,
        tierRows: tiers.map((r) => r.tier),
        listingRows: listings.map((r) => r.listing),
        table,
      };
    },
  );
}

export interface Loaded extends LoadedActivity {
  sessionRows: SessionRow[];
  tierRows: TierRow[];
  listingRows: ListingRow[];
  table: CurrencyTable;
}

export function loadAll(scope: RequestScope, id: number, drafts = false): Promise<Loaded | null> {
  return readOne(scope.db, activityRead(scope, id, drafts));
}

/** The activity's sale state, from its status, dates and the tickets left in its sessions still to come. */
export function saleOf(loaded: Loaded, now: number): Availability {
  const openSessions = new Set(loaded.sessionRows.filter((s) => sessionOpen(s.startsAt, now)).map((s) => s.id));
  const openTiers = new Set(loaded.tierRows.filter((t) => openSessions.has(t.sessionId)).map((t) => t.id));
  return availability(
    {
      status: loaded.activity.status,
      saleStartsAt: loaded.activity.saleStartsAt,
      lastSessionStartsAt: loaded.sessionRows.at(-1)?.startsAt ?? loaded.activity.endsAt,
      available: ticketsAvailable(loaded.listingRows.filter((l) => openTiers.has(l.tierId))),
    },
    now,
  );
}
