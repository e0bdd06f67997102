/**
 * Local builds only: the end-to-end tests' fixtures, each a named operation with its input schema,
 * for what no API gives (a listing fit for a journey, a show of a test's own, an operator, a stock
 * change behind the shop's back). They run in the worker on its own binding, as the SQL route does:
 * workerd's SQLite waits for no lock, so a second process writing the database file would make the
 * server's own writes fail. Each operation writes exactly the rows or columns it names, as operations
 * staff would load them; nothing here goes through the shop's rules.
 */
import { and, asc, count, desc, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { activities, activitySessions, cities, listings, orders, staffRoles, ticketTiers, users } from '../../db/schema.ts';
import { ACTIVITY_STATUS } from '../../domain/activity.ts';
import { DomainError } from '../../domain/errors.ts';
import { STAFF_ROLES, type StaffRole } from '../../domain/staff.ts';
import { devOutboxProvider } from '../messages/providers/dev-outbox.ts';
import type { RequestScope } from './scope.ts';

/**
 * The fixtures' input schemas, made on the first call: a production bundle, which never calls it,
 * keeps none of them (a schema made at the top level would stay, its calls not known to be pure).
 */
function inputSchemas() {
  const id = z.number().int().positive();
  const time = z.number().int().nonnegative();
  /** What a journey needs of a listing on sale (its sale started before now), and which of those comes first. */
  const listingQuery = z.object({
    /** The activity states to look in. */
    activityStates: z.array(z.enum(['onSale', 'booking', 'notYetOnSale'])).min(1),
    realNames: z.boolean().optional(),
    /** Its delivery types include the e-ticket. */
    eTicket: z.boolean().optional(),
    /** The seller's own listing, not the resale of an order's tickets. */
    sellerListed: z.boolean().optional(),
    /** The activity allows an order of this many tickets. */
    orderOf: z.number().int().positive().optional(),
    minAvailable: z.number().int().nonnegative().optional(),
    /** Its session starts more than this long (ms) after now. */
    sessionStartsIn: z.number().int().nonnegative().optional(),
    sellerHasEmail: z.boolean().optional(),
    /** By listing id, newest or oldest first, or the most tickets available first (then oldest). */
    order: z.enum(['newest', 'oldest', 'mostAvailable']),
    /** Skips this many of the listings found, so specs running side by side take different ones. */
    offset: z.number().int().nonnegative().default(0),
  });
  const newSession = z.object({
    activityId: id,
    startsAt: time,
    endsAt: time,
    status: z.enum(['scheduled', 'cancelled', 'postponed']).optional(),
    changedAt: time.optional(),
    highDemand: z.boolean().optional(),
  });
  /** A copy of a tier (names, face value, currency, sort) in another session, under another English name when given. */
  const tierCopy = z.object({ sessionId: id, fromTierId: id, nameEn: z.string().min(1).optional(), highDemand: z.boolean().optional() });
  /**
   * A copy of a listing (seller, price, seating, delivery types, creation time) on another tier, active,
   * with `quantity` tickets all available, and other delivery types when given.
   */
  const listingCopy = z.object({
    tierId: id,
    fromListingId: id,
    quantity: z.number().int().positive(),
    deliveryTypes: z.string().min(1).optional(),
  });
  /** Multiplies, or divides (in whole minor units), the price of every active listing of an activity. */
  const priceScaling = z.object({
    activityId: id,
    scale: z.union([z.object({ times: z.number().int().positive() }), z.object({ dividedBy: z.number().int().positive() })]),
  });
  const stockChange = z.object({ listingId: id, quantityAvailable: z.number().int().nonnegative() });
  const sessionDemand = z.object({ sessionId: id, highDemand: z.boolean() });
  const tierDemand = z.object({ tierId: id, highDemand: z.boolean() });
  /** An order by id or by number: its number, session and seller's address. */
  const orderKey = z.union([z.object({ orderId: id }), z.object({ orderNo: z.string().min(1) })]);
  /** An email as the message consumer delivers it in a local build: into the dev outbox, HTML part and all. */
  const outboxEmail = z.object({
    id: z.string().min(1),
    to: z.string().min(1),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable(),
  });
  return {
    listingQuery,
    newSession,
    tierCopy,
    listingCopy,
    priceScaling,
    stockChange,
    sessionDemand,
    tierDemand,
    orderKey,
    outboxEmail,
    id,
  };
}

type Inputs = ReturnType<typeof inputSchemas>;
type Input<Name extends keyof Inputs> = z.output<Inputs[Name]>;

interface Operation<Schema extends z.ZodType, Output> {
  summary: string;
  input: Schema;
  run: (scope: RequestScope, input: z.output<Schema>) => Promise<Output>;
}

const operation = <Schema extends z.ZodType, Output>(
  summary: string,
  input: Schema,
  run: (scope: RequestScope, input: z.output<Schema>) => Promise<Output>,
): Operation<Schema, Output> => ({ summary, input, run });

/** A listing on sale, the tier, session and activity it belongs to, and its seller's address. */
export interface FoundListing {
  id: number;
  tierId: number;
  tierNameEn: string;
  sessionId: number;
  activityId: number;
  quantityAvailable: number;
  sellerEmail: string | null;
}

async function findListing(scope: RequestScope, query: Input<'listingQuery'>): Promise<FoundListing | null> {
  const conditions: (SQL | undefined)[] = [eq(listings.status, 'active'), lt(activities.saleStartsAt, scope.now)];
  conditions.push(
    inArray(
      activities.status,
      query.activityStates.map((state) => ACTIVITY_STATUS[state]),
    ),
  );
  if (query.realNames !== undefined) conditions.push(eq(activities.realNameRequired, query.realNames));
  if (query.eTicket) conditions.push(sql`instr(${listings.deliveryTypes}, 'e_ticket') > 0`);
  if (query.sellerListed) conditions.push(isNull(listings.sourceOrderId));
  if (query.orderOf !== undefined) conditions.push(lte(activities.numMin, query.orderOf), gte(activities.numMax, query.orderOf));
  if (query.minAvailable !== undefined) conditions.push(gte(listings.quantityAvailable, query.minAvailable));
  if (query.sessionStartsIn !== undefined) conditions.push(gt(activitySessions.startsAt, scope.now + query.sessionStartsIn));
  if (query.sellerHasEmail) conditions.push(isNotNull(users.email));
  const order = {
    newest: [desc(listings.id)],
    oldest: [asc(listings.id)],
    mostAvailable: [desc(listings.quantityAvailable), asc(listings.id)],
  }[query.order];
  const [found] = await scope.db
    .select({
      id: listings.id,
      tierId: ticketTiers.id,
      tierNameEn: ticketTiers.nameEn,
      sessionId: activitySessions.id,
      activityId: activities.id,
      quantityAvailable: listings.quantityAvailable,
      sellerEmail: users.email,
    })
    .from(listings)
    .innerJoin(users, eq(users.id, listings.sellerId))
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .where(and(...conditions))
    .orderBy(...order)
    .limit(1)
    .offset(query.offset);
  return found ?? null;
}

/** The activity with the most listings that have tickets left; among equals the highest id, the one SQLite's plain `ORDER BY count(*) DESC` took. */
async function activityWithMostListings(scope: RequestScope): Promise<{ activityId: number } | null> {
  const [found] = await scope.db
    .select({ activityId: activitySessions.activityId })
    .from(listings)
    .innerJoin(ticketTiers, eq(ticketTiers.id, listings.tierId))
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(and(eq(listings.status, 'active'), gt(listings.quantityAvailable, 0)))
    .groupBy(activitySessions.activityId)
    .orderBy(desc(count()), desc(activitySessions.activityId))
    .limit(1);
  return found ?? null;
}

/** The session of the demo's upcoming hot on-sale: high demand, its activity's sale not yet open. */
async function upcomingHighDemandSession(scope: RequestScope): Promise<{ sessionId: number; activityId: number; opensAt: number } | null> {
  const [found] = await scope.db
    .select({ sessionId: activitySessions.id, activityId: activities.id, opensAt: activities.saleStartsAt })
    .from(activitySessions)
    .innerJoin(activities, eq(activities.id, activitySessions.activityId))
    .where(and(eq(activitySessions.highDemand, true), gt(activities.saleStartsAt, scope.now)))
    .orderBy(asc(activitySessions.id))
    .limit(1);
  return found ?? null;
}

async function createSession(scope: RequestScope, session: Input<'newSession'>): Promise<{ id: number }> {
  const [created] = await scope.db.insert(activitySessions).values(session).returning({ id: activitySessions.id });
  return created;
}

async function copyTier(scope: RequestScope, copy: Input<'tierCopy'>): Promise<{ id: number }> {
  const [source] = await scope.db.select().from(ticketTiers).where(eq(ticketTiers.id, copy.fromTierId));
  if (!source) throw new DomainError('not_found');
  const [created] = await scope.db
    .insert(ticketTiers)
    .values({
      sessionId: copy.sessionId,
      nameEn: copy.nameEn ?? source.nameEn,
      nameZhHant: source.nameZhHant,
      nameZhHans: source.nameZhHans,
      faceValue: source.faceValue,
      currency: source.currency,
      sort: source.sort,
      highDemand: copy.highDemand,
    })
    .returning({ id: ticketTiers.id });
  return created;
}

async function copyListing(scope: RequestScope, copy: Input<'listingCopy'>): Promise<{ id: number }> {
  const [source] = await scope.db.select().from(listings).where(eq(listings.id, copy.fromListingId));
  if (!source) throw new DomainError('not_found');
  const [created] = await scope.db
    .insert(listings)
    .values({
      tierId: copy.tierId,
      sellerId: source.sellerId,
      price: source.price,
      currency: source.currency,
      quantityTotal: copy.quantity,
      quantityAvailable: copy.quantity,
      seating: source.seating,
      deliveryTypes: copy.deliveryTypes ?? source.deliveryTypes,
      status: 'active',
      createdAt: source.createdAt,
    })
    .returning({ id: listings.id });
  return created;
}

async function scaleActivityPrices(scope: RequestScope, { activityId, scale }: Input<'priceScaling'>): Promise<void> {
  // Integers written into the statement, so the division is SQLite's integer division.
  const price =
    'times' in scale
      ? sql`${listings.price} * ${sql.raw(String(scale.times))}`
      : sql`${listings.price} / ${sql.raw(String(scale.dividedBy))}`;
  const tiersOfActivity = scope.db
    .select({ id: ticketTiers.id })
    .from(ticketTiers)
    .innerJoin(activitySessions, eq(activitySessions.id, ticketTiers.sessionId))
    .where(eq(activitySessions.activityId, activityId));
  await scope.db
    .update(listings)
    .set({ price })
    .where(and(eq(listings.status, 'active'), inArray(listings.tierId, tiersOfActivity)));
}

async function setListingStock(scope: RequestScope, change: Input<'stockChange'>): Promise<void> {
  await scope.db.update(listings).set({ quantityAvailable: change.quantityAvailable }).where(eq(listings.id, change.listingId));
}

async function setSessionHighDemand(scope: RequestScope, change: Input<'sessionDemand'>): Promise<void> {
  await scope.db.update(activitySessions).set({ highDemand: change.highDemand }).where(eq(activitySessions.id, change.sessionId));
}

async function setTierHighDemand(scope: RequestScope, change: Input<'tierDemand'>): Promise<void> {
  await scope.db.update(ticketTiers).set({ highDemand: change.highDemand }).where(eq(ticketTiers.id, change.tierId));
}

async function makeStaff(scope: RequestScope, { userId, role }: { userId: number; role: StaffRole }): Promise<void> {
  await scope.db.insert(staffRoles).values({ userId, role, grantedBy: null, grantedAt: scope.now }).onConflictDoNothing();
}

/** The first user (lowest id): the demo's first seller, whose invitation a preview shows. */
async function firstUser(scope: RequestScope): Promise<{ inviteCode: string; nickname: string } | null> {
  const [user] = await scope.db
    .select({ inviteCode: users.inviteCode, nickname: users.nickname })
    .from(users)
    .orderBy(asc(users.id))
    .limit(1);
  return user ?? null;
}

/** The first cities in their list order. */
async function firstCities(scope: RequestScope, { count: limit }: { count: number }): Promise<{ cityId: number; cityName: string }[]> {
  return scope.db
    .select({ cityId: cities.id, cityName: cities.nameEn })
    .from(cities)
    .orderBy(asc(cities.sort), asc(cities.id))
    .limit(limit);
}

async function orderOf(
  scope: RequestScope,
  key: Input<'orderKey'>,
): Promise<{ orderNo: string; sessionId: number; sellerEmail: string | null } | null> {
  const [found] = await scope.db
    .select({ orderNo: orders.orderNo, sessionId: orders.sessionId, sellerEmail: users.email })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.sellerId))
    .where('orderId' in key ? eq(orders.id, key.orderId) : eq(orders.orderNo, key.orderNo));
  return found ?? null;
}

async function deliverEmail(scope: RequestScope, email: Input<'outboxEmail'>): Promise<void> {
  await devOutboxProvider(scope.db).deliver({ ...email, channel: 'email' });
}

/** The fixtures by name; POST /api/v1/dev/fixtures/{name} runs one (src/lib/api/routes/dev.ts). */
export function devFixtures() {
  const {
    listingQuery,
    newSession,
    tierCopy,
    listingCopy,
    priceScaling,
    stockChange,
    sessionDemand,
    tierDemand,
    orderKey,
    outboxEmail,
    id,
  } = inputSchemas();
  return {
    'find-listing': operation(
      'A listing on sale that fits a journey, with its tier, session, activity and seller',
      listingQuery,
      findListing,
    ),
    'activity-with-most-listings': operation(
      'The activity with the most listings that have tickets left',
      z.object({}),
      activityWithMostListings,
    ),
    'upcoming-high-demand-session': operation("The demo's upcoming high-demand session", z.object({}), upcomingHighDemandSession),
    'create-session': operation('Adds a session to an activity', newSession, createSession),
    'copy-tier': operation('Copies a tier into a session', tierCopy, copyTier),
    'copy-listing': operation('Copies a listing onto a tier', listingCopy, copyListing),
    'scale-activity-prices': operation(
      "Multiplies or divides the prices of an activity's active listings",
      priceScaling,
      scaleActivityPrices,
    ),
    'set-listing-stock': operation("Sets a listing's available tickets", stockChange, setListingStock),
    'set-session-high-demand': operation("Sets a session's high demand", sessionDemand, setSessionHighDemand),
    'set-tier-high-demand': operation("Sets a tier's high demand", tierDemand, setTierHighDemand),
    'make-staff': operation('Gives an account a staff role', z.object({ userId: id, role: z.enum(STAFF_ROLES) }), makeStaff),
    'first-user': operation("The first user's invitation code and nickname", z.object({}), firstUser),
    'first-cities': operation('The first cities in list order', z.object({ count: z.number().int().positive().max(100) }), firstCities),
    order: operation("An order's number, session and seller's email", orderKey, orderOf),
    'deliver-email': operation('Delivers an email to the dev outbox', outboxEmail, deliverEmail),
  };
}

type DevFixtures = ReturnType<typeof devFixtures>;
export type DevFixtureName = keyof DevFixtures;
export type DevFixtureInput<Name extends DevFixtureName> = z.input<DevFixtures[Name]['input']>;
export type DevFixtureOutput<Name extends DevFixtureName> = Awaited<ReturnType<DevFixtures[Name]['run']>>;

/** One fixture as the route runs it: on the input its schema parsed. */
export type DevFixture = Operation<z.ZodType, unknown>;
