/**
 * A user's delivery addresses. Every read and change is scoped to the owner: someone else's id is
 * answered exactly like a missing one (404), so ids reveal nothing.
 */
import { and, asc, eq } from 'drizzle-orm';
import { read, readOne, type Read } from '../../data/read-together.ts';
import { addresses } from '../../db/schema.ts';
import { addressProblem, normalizeAddress, type AddressInput } from '../../domain/address.ts';
import { countryName, isCountryCode } from '../../domain/countries.ts';
import { DomainError } from '../../domain/errors.ts';
import { regionName } from '../../domain/regions.ts';
import type { Locale } from '../../i18n/locales.ts';
import { keptWithinCap } from './owner-cap.ts';
import type { UserScope } from '../platform/scope.ts';

/** At most this many addresses per user, so one account cannot fill the table. */
export const MAX_ADDRESSES = 20;

export interface AddressView extends AddressInput {
  id: number;
  countryName: string;
  /** Province, city and district as they read, selectable codes named in the request's language. */
  area: string;
}

type AddressRow = typeof addresses.$inferSelect;

function viewOf(row: AddressRow, locale: Locale): AddressView {
  const country = isCountryCode(row.countryCode) ? countryName(row.countryCode, locale) : row.countryCode;
  const area = [row.province, row.city, row.district]
    .filter(Boolean)
    .map((value) => regionName(row.countryCode, value, locale))
    .join(' ');
  return {
    id: row.id,
    name: row.name,
    phoneCountryCode: row.phoneCountryCode,
    phone: row.phone,
    countryCode: row.countryCode,
    countryName: country,
    province: row.province,
    city: row.city,
    district: row.district,
    street: row.street,
    postcode: row.postcode,
    area,
  };
}

function checked(input: AddressInput): AddressInput {
  const address = normalizeAddress(input);
  const issue = addressProblem(address, isCountryCode);
  if (issue) throw new DomainError(issue.problem, {}, issue.field);
  return address;
}

export async function listAddresses(scope: UserScope): Promise<AddressView[]> {
  const { db, userId } = scope;
  const { locale } = scope.ctx;
  const rows = await db.select().from(addresses).where(eq(addresses.userId, userId)).orderBy(asc(addresses.id));
  return rows.map((row) => viewOf(row, locale));
}

/** One of the user's addresses, or null when they have none of that id. */
export function addressRead(scope: UserScope, id: number): Read<AddressView | null> {
  const { db, userId } = scope;
  return read(
    {
      address: db
        .select()
        .from(addresses)
        .where(and(eq(addresses.id, id), eq(addresses.userId, userId))),
    },
    ({ address: [row] }) => (row ? viewOf(row, scope.ctx.locale) : null),
  );
}

export async function getAddress(scope: UserScope, id: number): Promise<AddressView> {
  const address = await readOne(scope.db, addressRead(scope, id));
  if (!address) throw new DomainError('address_not_found');
  return address;
}

export async function createAddress(scope: UserScope, input: AddressInput): Promise<AddressView> {
  const { db, userId } = scope;
  const { locale } = scope.ctx;
  const address = checked(input);
  // Inserted first and then held to the cap, which keeps it without a transaction (owner-cap.ts).
  const [row] = await db
    .insert(addresses)
    .values({ ...address, userId })
    .returning();
  if (!(await keptWithinCap(db, { table: addresses, id: addresses.id, owner: addresses.userId }, userId, row.id, MAX_ADDRESSES))) {
    throw new DomainError('address_limit_reached', { max: MAX_ADDRESSES });
  }
  return viewOf(row, locale);
}

export async function updateAddress(scope: UserScope, id: number, input: AddressInput): Promise<AddressView> {
  const { db, userId } = scope;
  const { locale } = scope.ctx;
  const address = checked(input);
  const [row] = await db
    .update(addresses)
    .set(address)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning();
  if (!row) throw new DomainError('address_not_found');
  return viewOf(row, locale);
}

export async function deleteAddress(scope: UserScope, id: number): Promise<void> {
  const { db, userId } = scope;
  const deleted = await db
    .delete(addresses)
    .where(and(eq(addresses.id, id), eq(addresses.userId, userId)))
    .returning({ id: addresses.id });
  if (deleted.length === 0) throw new DomainError('address_not_found');
}
