import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { statusOf } from '../../src/lib/api/errors.ts';
import { DomainError } from '../../src/lib/domain/errors.ts';
import type { ConfirmQuery } from '../../src/lib/domain/confirm-query.ts';
import type { RequestContext } from '../../src/lib/domain/request-context.ts';
import { confirmedClaim } from '../../src/lib/services/accounts/signed-in.ts';
import { confirmPage } from '../../src/lib/loaders/order-confirm.ts';
import type { CheckoutQuote } from '../../src/lib/services/orders/presenters.ts';
import { signUp, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { userScope } from './shop.ts';

const _ctx: RequestContext = { locale: 'en', currency: 'HKD', clientType: 12, cityId: 341 };

/** A listing on sale now whose activity is (or is not) real-name, offering (or not) courier delivery. */
async function listing(options: { realName: boolean; courier: boolean }): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT l.id AS id FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND l.quantity_available >= 2 AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 86400000
       AND a.real_name_required = ?2 AND a.num_min <= 1 AND (instr(l.delivery_types, 'courier') > 0) = ?3
     ORDER BY l.id LIMIT 1`,
  )
    .bind(Date.now(), options.realName ? 1 : 0, options.courier ? 1 : 0)
    .first<{ id: number }>();
  if (!row) throw new Error('no such listing in the seed');
  return row.id;
}

const query = (listingId: number, choices: Partial<ConfirmQuery> = {}): ConfirmQuery => ({
  listingId,
  quantity: 1,
  deliveryType: null,
  paymentMethod: null,
  coupon: 'best',
  addressId: null,
  attendeeIds: [],
  ...choices,
});

let signUps = 0;
async function buyer(): Promise<{ client: TestClient; userId: number }> {
  const client = new TestClient();
  signUps += 1;
  return { client, userId: await signUp(client, `confirm-page${signUps}@example.com`) };
}

async function page(userId: number, choices: ConfirmQuery) {
  const scope = await userScope(userId);
  const found = await confirmPage(confirmedClaim(scope), choices);
  // No seeded session here is high demand, so no buyer is sent to a waiting room.
  if ('waitingRoom' in found) throw new Error(`session ${found.waitingRoom.sessionId} is high demand`);
  return found;
}

beforeAll(() => seed());

describe('the confirmation page data', () => {
  it('prices the choices in the URL exactly as the quote API does', async () => {
    const { client, userId } = await buyer();
    const listingId = await listing({ realName: false, courier: true });
    const data = await page(userId, query(listingId, { deliveryType: 'courier' }));
    const api = await client.call<CheckoutQuote>(`/api/v1/checkout/quote?listingId=${listingId}&quantity=1&deliveryType=courier`, {
      headers: { language: 'en', currency: 'HKD' },
    });
    expect(data.quote.deliveryType).toBe('courier');
    expect(data.quote.cost).toEqual(api.body.data.cost);
    expect(data.query.deliveryType).toBe('courier');
    expect(data.attendees).toBeNull();
  });

  it('drops a delivery type the listing does not offer and prices its first one instead', async () => {
    const { userId } = await buyer();
    const data = await page(userId, query(await listing({ realName: false, courier: false }), { deliveryType: 'courier' }));
    expect(data.quote.deliveryType).toBe(data.quote.listing.deliveryTypes[0]);
    expect(data.quote.deliveryType).not.toBe('courier');
    expect(data.query.deliveryType).toBeNull();
  });

  it("shows the buyer's own shipping address and ignores anyone else's", async () => {
    const owner = await buyer();
    const saved = await owner.client.post<{ id: number }>('/api/v1/addresses', {
      name: 'Chan Tai Man',
      phoneCountryCode: '+852',
      phone: '91234567',
      countryCode: 'HK',
      district: 'WC',
      street: "1 Queen's Road East",
    });
    const listingId = await listing({ realName: false, courier: true });
    const own = await page(owner.userId, query(listingId, { addressId: saved.body.data.id }));
    expect(own.address).toMatchObject({ id: saved.body.data.id, name: 'Chan Tai Man', phone: '+852 91234567' });
    expect(own.address?.text).toContain("1 Queen's Road East");
    expect(own.query.addressId).toBe(saved.body.data.id);

    const stranger = await buyer();
    const other = await page(stranger.userId, query(listingId, { addressId: saved.body.data.id }));
    expect(other.address).toBeNull();
    expect(other.query.addressId).toBeNull();
  });

  it('lists the chosen real-name attendees in the order chosen, masked, with the ID type the venue asks of each', async () => {
    const { client, userId } = await buyer();
    const passport = await client.post<{ id: number }>('/api/v1/attendees', {
      name: 'Lee Ka Yan',
      nationality: 'GB',
      idCardType: 'passport',
      idCardNo: 'P1234567',
    });
    const idCard = await client.post<{ id: number }>('/api/v1/attendees', {
      name: 'Chan Siu Ming',
      nationality: 'HK',
      idCardType: 'id_card',
      idCardNo: 'A123456(3)',
    });
    const stranger = await buyer();
    const foreign = await stranger.client.post<{ id: number }>('/api/v1/attendees', {
      name: 'Someone Else',
      nationality: 'GB',
      idCardType: 'passport',
      idCardNo: 'P7654321',
    });

    const chosen = [idCard.body.data.id, foreign.body.data.id, passport.body.data.id];
    const data = await page(userId, query(await listing({ realName: true, courier: false }), { attendeeIds: chosen }));
    const venue = data.quote.activity.venueCountry;
    expect(data.attendees?.saved).toBe(2);
    expect(data.attendees?.chosen).toEqual([
      {
        id: idCard.body.data.id,
        name: 'Chan Siu Ming',
        idCardType: 'id_card',
        idCardNo: 'A1******3)',
        requiredType: venue === 'HK' ? 'id_card' : 'passport',
      },
      {
        id: passport.body.data.id,
        name: 'Lee Ka Yan',
        idCardType: 'passport',
        idCardNo: 'P1****67',
        requiredType: venue === 'GB' ? 'id_card' : 'passport',
      },
    ]);
    expect(data.query.attendeeIds).toEqual([idCard.body.data.id, passport.body.data.id]);
  });

  it("throws the quote's error for a listing that cannot be bought", async () => {
    const { userId } = await buyer();
    const failure = await page(userId, query(999_999)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ code: 'listing_not_found' });
    expect(statusOf(failure as DomainError)).toBe(404);
  });
});
