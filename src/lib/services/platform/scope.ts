/**
 * What a service call reads with, built once per request: by the API's middleware (c.var.scope) or
 * by a page (edge/page-scope.ts), never from Hono or Astro types, so services stay free of both, nor
 * from Durable Objects: their ports come in with it.
 */
import type { Db } from '../../data/client.ts';
import type { OnSaleObjects } from '../../data/inventory-port.ts';
import type { Read } from '../../data/read-together.ts';
import type { CurrencyTable } from '../../domain/money.ts';
import type { StaffRole } from '../../domain/staff.ts';
import type { RequestContext } from '../../domain/request-context.ts';
import type { ReferenceData } from '../catalogue/reference-data.ts';
import type { ServiceEnv } from './env.ts';

export interface RequestScope {
  db: Db;
  /** Language, currency, client type and city of the request. */
  ctx: RequestContext;
  /** The currency table of `reference`, which the money domain prices with. */
  currencies: CurrencyTable;
  /** Cities, categories, languages, currencies and hot words, from the isolate's memory (reference-data.ts). */
  reference: ReferenceData;
  /** The request's clock: one moment for everything it does. */
  now: number;
  /** Secrets and settings from the worker's env. */
  env: ServiceEnv;
  /** The high-demand on-sales' inventories and waiting rooms (data/inventory-port.ts), as the edge wired them. */
  onSales: OnSaleObjects;
  /**
   * Hands the runtime work that may finish after the answer (the execution context's `waitUntil`);
   * without it, a service awaits such work itself.
   */
  waitUntil?: (work: Promise<unknown>) => void;
}

/** The scope of a signed-in caller. */
export interface UserScope extends RequestScope {
  userId: number;
}

/** The scope of a signed-in staff member whose roles cover what they are doing (services/staff/roles.ts). */
export interface StaffScope extends UserScope {
  staffRoles: readonly StaffRole[];
}

/**
 * The scope of a caller whose sign-in its service checks in its own first read (signed-in.ts): the
 * user their id cookie claims, and the read of their session that must confirm it. Not a UserScope,
 * so no service can read for the claimed user without that check.
 */
export interface ClaimedUserScope extends RequestScope {
  claimedUserId: number;
  /** A page's claim: a session of another user than the id cookie's is no sign-in at all, as the middleware's check has it. */
  exact?: boolean;
  session: Read<{ userId: number } | null>;
}
