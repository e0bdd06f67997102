import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { placeOrder } from './shop.ts';

/**
 * Every cached page's key holds the catalogue version (migration 0012, edge/shared-page-cache.ts),
 * so a write that bumps it empties the edge cache of every page. An order changes only a listing's
 * stock: it must leave the version alone unless it sells the listing out, which changes what pages
 * show (an automatic high-demand counter in the session row once broke this).
 */
async function catalogueVersion(): Promise<number> {
  const row = await env.DB.prepare('SELECT version FROM catalogue_version WHERE id = 1').first<{ version: number }>();
  return row!.version;
}

/** An e-ticket listing anyone can buy now (not real-name, on sale, its session ahead). */
async function buyableListing(): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT l.id AS listingId FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND l.quantity_available >= 2 AND a.status IN (1, 4) AND a.sale_starts_at <= ?1
       AND s.starts_at > ?1 + 86400000 AND s.high_demand = 0 AND a.real_name_required = 0 AND a.num_max >= 2
       AND instr(l.delivery_types, 'e_ticket') > 0
     ORDER BY l.id LIMIT 1`,
  )
    .bind(Date.now())
    .first<{ listingId: number }>();
  if (!row) throw new Error('no buyable e-ticket listing in the seed');
  return row.listingId;
}

let listingId: number;

beforeAll(async () => {
  await seed();
  listingId = await buyableListing();
  await env.DB.prepare('UPDATE listings SET quantity_available = 3, quantity_total = 3 WHERE id = ?').bind(listingId).run();
});

describe('the catalogue version under orders', () => {
  it('stays the same when an order takes some of a listing’s stock', async () => {
    const before = await catalogueVersion();
    const order = await placeOrder(await signedInClient('version-some'), listingId, 2);
    expect(order.status).toBe(200);
    expect(await catalogueVersion()).toBe(before);
  });

  it('moves on when an order sells the listing out', async () => {
    const before = await catalogueVersion();
    const order = await placeOrder(await signedInClient('version-last'), listingId, 1);
    expect(order.status).toBe(200);
    expect(await catalogueVersion()).toBeGreaterThan(before);
  });
});
