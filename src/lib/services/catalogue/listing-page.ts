/**
 * One page of a listing's activity cards: a category list counted, sorted and paged in one batch of
 * compiled statements, or a search's filtered matches (from services/search/) paged or sorted among
 * themselves.
 */
import { inArray, sql, type SQL } from 'drizzle-orm';
import { LISTING_PAGE_SIZE, SEARCH_CANDIDATE_LIMIT } from '../../config/browse.ts';
import { type Bound, compiledSelect } from '../../data/compiled-select.ts';
import type { Db } from '../../data/client.ts';
import { read, readOne } from '../../data/read-together.ts';
import { activities } from '../../db/schema.ts';
import { addDays, startOfLocalDay } from '../../domain/calendar.ts';
import type { ListingQuery, Sort } from '../../domain/listing-url.ts';
import { cardQuery, cheapestValueHkd, toCards, type ActivityCard, type CategoryView } from './catalogue.ts';
import { phraseMatches } from '../search/phrase-search.ts';
import { filterCondition, indexMatches, matchAttempts, rankedSource, SEARCH_RANK, type SearchFilter } from '../search/search.ts';
import type { CityRow } from './reference-data.ts';
import type { RequestScope } from '../platform/scope.ts';

/** What the list is narrowed to: its category and city, and the time zone its dates are in. */
export interface ListingFilter {
  category: CategoryView | null;
  city: CityRow | null;
  timeZone: string;
}

/** The order of a sort; `relevance` is the search's own (the index's rank, or a ranking made outside it). */
function orderBy(sort: Sort, now: Bound<number>, relevance: SQL = SEARCH_RANK): SQL {
  switch (sort) {
    case 'relevance':
      return relevance;
    case 'time':
      return sql`a.starts_at, a.id`;
    case 'hot':
      return sql`a.is_hot DESC, a.starts_at, a.id`;
    case 'price':
      return sql`${cheapestValueHkd(now, sql`a.id`)} NULLS LAST, a.starts_at, a.id`;
  }
}

/** The values of the query's filters beyond what every listing keeps (upcoming activities shown to buyers): category, city, dates. */
interface Narrowing {
  categoryId: number | null;
  cityId: number | null;
  dates: { from: number; until: number } | null;
}

function narrowing(query: ListingQuery, filter: ListingFilter, now: number): Narrowing {
  // Dates are local to the chosen city, else to Hong Kong; sessions that already began do not count.
  const dates =
    query.from || query.to
      ? {
          from: Math.max(query.from ? startOfLocalDay(query.from, filter.timeZone) : now, now),
          until: query.to ? startOfLocalDay(addDays(query.to, 1), filter.timeZone) : Number.MAX_SAFE_INTEGER,
        }
      : null;
  return { categoryId: filter.category?.id ?? null, cityId: filter.city?.id ?? null, dates };
}

/** The narrowing's conditions, written with its values or, in a compiled list, their placeholders. */
function narrowingSql({
  categoryId,
  cityId,
  dates,
}: {
  categoryId: Bound<number> | null;
  cityId: Bound<number> | null;
  dates: { from: Bound<number>; until: Bound<number> } | null;
}): SQL | null {
  const where: SQL[] = [];
  if (categoryId !== null) where.push(sql`a.category_id = ${categoryId}`);
  if (cityId !== null) where.push(sql`a.city_id = ${cityId}`);
  if (dates) {
    const { from, until } = dates;
    // The first and last session bracket the range cheaply; a session inside it decides.
    where.push(sql`a.starts_at < ${until} AND a.ends_at >= ${from}`);
    where.push(
      sql`EXISTS (SELECT 1 FROM activity_sessions s WHERE s.activity_id = a.id AND s.starts_at >= ${from} AND s.starts_at < ${until})`,
    );
  }
  return where.length > 0 ? sql.join(where, sql` AND `) : null;
}

interface Page {
  total: number;
  totalIsLowerBound: boolean;
  cards: ActivityCard[];
}

const NO_PAGE: Page = { total: 0, totalIsLowerBound: false, cards: [] };

/**
 * The page of the first source (search: the first match attempt) with any result. A search first
 * finds its filtered matches in order, at most SEARCH_CANDIDATE_LIMIT + 1 of them: a specific
 * search's ranked once, in one statement; a broad one's (more than SEARCH_CANDIDATE_LIMIT matches in
 * the index) in index order, buyable soonest first, so its cost does not grow with the catalogue
 * (docs/search.md). The page is then cut from those ids, or sorted among them.
 */
export async function findPage(scope: RequestScope, query: ListingQuery, filter: ListingFilter): Promise<Page> {
  const narrowed = narrowing(query, filter, scope.now);
  if (query.kind !== 'search') return readPage(scope, query, narrowed);
  const searchFilter: SearchFilter = { now: scope.now, narrowing: narrowingSql(narrowed) };
  const { db } = scope;
  // A CJK phrase found through the bigram table stands for the first (phrase) attempt.
  const phrase = await phraseMatches(db, query.keyword, searchFilter, SEARCH_CANDIDATE_LIMIT + 1);
  for (const [attempt, expression] of matchAttempts(query.keyword).entries()) {
    const ids = attempt === 0 && phrase !== null ? phrase.ids : await indexMatches(db, expression, searchFilter);
    if (ids.length > 0) return readSearchPage(scope, query, ids);
  }
  return NO_PAGE;
}

/**
 * A category list's values; a filter its shape leaves out has no condition, and its value (0) is
 * never bound.
 */
type PageValues = { now: number; categoryId: number; cityId: number; from: number; until: number; offset: number };
type PageBounds = { [K in keyof PageValues]: Bound<number> };

const PAGE_VALUE_NAMES: readonly (keyof PageValues)[] = ['now', 'categoryId', 'cityId', 'from', 'until', 'offset'];

/** Which conditions and order a category list's statements have: their SQL text depends on nothing else. */
interface PageShape {
  sort: Sort;
  category: boolean;
  city: boolean;
  dates: boolean;
}

function pageWhere(shape: PageShape, values: PageBounds): SQL {
  const narrowed = narrowingSql({
    categoryId: shape.category ? values.categoryId : null,
    cityId: shape.city ? values.cityId : null,
    dates: shape.dates ? { from: values.from, until: values.until } : null,
  });
  return filterCondition({ now: values.now, narrowing: narrowed });
}

const countSelect = (db: Db, shape: PageShape, values: PageBounds) =>
  db.select({ total: sql<number>`count(*)` }).from(sql`activities a`).where(pageWhere(shape, values));

const pageIdsSelect = (db: Db, shape: PageShape, values: PageBounds) =>
  db
    .select({ id: sql<number>`a.id` })
    .from(sql`activities a`)
    .where(pageWhere(shape, values))
    .orderBy(orderBy(shape.sort, values.now))
    .limit(LISTING_PAGE_SIZE)
    .offset(values.offset);

const pageCardsSelect = (db: Db, shape: PageShape, values: PageBounds) =>
  cardQuery(db, values.now).where(inArray(activities.id, pageIdsSelect(db, shape, values)));

interface PageStatements {
  count: (db: Db, values: PageValues) => ReturnType<typeof countSelect>;
  ids: (db: Db, values: PageValues) => ReturnType<typeof pageIdsSelect>;
  cards: (db: Db, values: PageValues) => ReturnType<typeof pageCardsSelect>;
}

/**
 * A category list's statements for each shape (at most 4 sorts by 8 filter sets), compiled on first
 * use: the card columns and their price subqueries are the most SQL a rendered page builds
 * (data/compiled-select.ts).
 */
const pageStatements = new Map<string, PageStatements>();

function pageStatementsOf(shape: PageShape): PageStatements {
  const key = `${shape.sort} ${shape.category} ${shape.city} ${shape.dates}`;
  let statements = pageStatements.get(key);
  if (!statements) {
    statements = {
      count: compiledSelect<PageValues, ReturnType<typeof countSelect>>(PAGE_VALUE_NAMES, (db, values) => countSelect(db, shape, values)),
      ids: compiledSelect<PageValues, ReturnType<typeof pageIdsSelect>>(PAGE_VALUE_NAMES, (db, values) => pageIdsSelect(db, shape, values)),
      cards: compiledSelect<PageValues, ReturnType<typeof pageCardsSelect>>(PAGE_VALUE_NAMES, (db, values) =>
        pageCardsSelect(db, shape, values),
      ),
    };
    pageStatements.set(key, statements);
  }
  return statements;
}

/** Every activity of a category list counted and sorted, with the page's cards, in one batch. */
async function readPage(scope: RequestScope, query: ListingQuery, narrowed: Narrowing): Promise<Page> {
  const { db } = scope;
  const { categoryId, cityId, dates } = narrowed;
  const shape = { sort: query.sort, category: categoryId !== null, city: cityId !== null, dates: dates !== null };
  const values: PageValues = {
    now: scope.now,
    categoryId: categoryId ?? 0,
    cityId: cityId ?? 0,
    from: dates?.from ?? 0,
    until: dates?.until ?? 0,
    offset: (query.page - 1) * LISTING_PAGE_SIZE,
  };
  const statements = pageStatementsOf(shape);
  return readOne(
    db,
    read(
      { counted: statements.count(db, values), page: statements.ids(db, values), cards: statements.cards(db, values) },
      ({ counted: [counted], page, cards }) => ({
        total: counted?.total ?? 0,
        totalIsLowerBound: false,
        cards: inOrder(scope, page, cards),
      }),
    ),
  );
}

/**
 * A search's page from its filtered matches in relevance order, at most SEARCH_CANDIDATE_LIMIT + 1
 * (one more than the limit says a broad search has more, and is not shown): by relevance the page is
 * cut from that order; by time, popularity or price the matches are sorted among themselves.
 */
async function readSearchPage(scope: RequestScope, query: ListingQuery, matches: readonly number[]): Promise<Page> {
  const { db } = scope;
  const ids = matches.slice(0, SEARCH_CANDIDATE_LIMIT);
  const offset = (query.page - 1) * LISTING_PAGE_SIZE;
  const page =
    query.sort === 'relevance'
      ? ids.slice(offset, offset + LISTING_PAGE_SIZE).map((id) => ({ id }))
      : await db.all<{ id: number }>(
          sql`SELECT a.id AS id FROM ${rankedSource(ids)} ORDER BY ${orderBy(query.sort, scope.now)} LIMIT ${LISTING_PAGE_SIZE} OFFSET ${offset}`,
        );
  const cardRows =
    page.length > 0
      ? await cardQuery(db, scope.now).where(
          inArray(
            activities.id,
            page.map((row) => row.id),
          ),
        )
      : [];
  return { total: ids.length, totalIsLowerBound: matches.length > SEARCH_CANDIDATE_LIMIT, cards: inOrder(scope, page, cardRows) };
}

function inOrder(scope: RequestScope, page: { id: number }[], cardRows: Parameters<typeof toCards>[1]): ActivityCard[] {
  const cards = new Map(toCards(scope, cardRows).map((card) => [card.id, card]));
  return page.flatMap((row) => cards.get(row.id) ?? []);
}
