/**
 * All-in prices against checkout: every "from" price a buyer reads before checkout — each
 * card of the home page, of a category list and of search results, and the detail page's lowest
 * price — is what checkout charges for one ticket of the activity's cheapest listing, rounded up to
 * whole units; every listing's own price in the picker is that charge exactly. Checked for every
 * card the pages show, in currencies with and without minor units, through the APIs the pages and
 * the confirm page read (tests/e2e/all-in-prices.spec.ts reads the same on the rendered pages).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryType } from '../../src/lib/domain/delivery.ts';
import { fromPrice } from '../../src/lib/domain/pricing.ts';
import type { ActivityDetail } from '../../src/lib/services/catalogue/activity-detail.ts';
import type { TicketGroupInfo, TicketOffer } from '../../src/lib/services/catalogue/ticket-offers.ts';
import type { ActivityCard, HomeConfig } from '../../src/lib/services/catalogue/catalogue.ts';
import type { ListResponse } from '../../src/lib/services/catalogue/listing.ts';
import type { CheckoutQuote } from '../../src/lib/services/orders/presenters.ts';
import { signedInClient, type TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

/** Deliveries that cost no postage: the first a listing offers is the one checkout is asked for. */
const NO_POSTAGE: readonly DeliveryType[] = ['e_ticket', 'on_site', 'self_pickup'];

const CASES = [
  { language: 'en', currency: 'HKD', minorDigits: 2 },
  { language: 'zh-TW', currency: 'TWD', minorDigits: 0 },
  { language: 'zh-CN', currency: 'CNY', minorDigits: 2 },
  { language: 'zh-HK', currency: 'USD', minorDigits: 2 },
] as const;

/** The pages whose cards are checked: the home page (Hong Kong), a category list and search results across all cities. */
const LISTS = ['/concerts?city=all', '/all?city=all&sort=price', '/s_hong?city=all'];

let buyer: TestClient;

beforeAll(async () => {
  await seed();
  buyer = await signedInClient('all-in-prices');
});

/**
 * What checkout charges for one ticket of a listing with no coupon, before postage: its quote's
 * total for a delivery without postage, or for a listing that only goes by courier (whose postage is
 * a line of its own at checkout) that total less the postage. Checks on the way that the picker's
 * price of the listing is that charge to the minor unit, as the confirm page writes it.
 */
async function chargeForOne(group: TicketGroupInfo, headers: Record<string, string>): Promise<number> {
  const deliveryType = group.deliveryTypes.find((type) => NO_POSTAGE.includes(type)) ?? 'courier';
  const quoted = await buyer.call<CheckoutQuote>(
    `/api/v1/checkout/quote?listingId=${group.ticketGroup.id}&quantity=1&deliveryType=${deliveryType}&coupon=none`,
    { headers },
  );
  expect(quoted.status, quoted.text).toBe(200);
  const { cost } = quoted.body.data;
  expect(cost.currency).toBe(headers.currency);
  if (deliveryType !== 'courier') {
    expect(cost.postage, `listing ${group.ticketGroup.id} by ${deliveryType} costs no postage`).toBe(0);
    expect(group.salePriceView, `listing ${group.ticketGroup.id}: the picker's price is the confirm page's total`).toBe(
      cost.formatted.total,
    );
  }
  expect(cost.ticketAmount + cost.serviceFee).toBe(cost.total - cost.postage);
  return cost.total - cost.postage;
}

/**
 * The least checkout charges for one ticket of any listing the activity's picker offers (sessions to
 * come, tiers with tickets, listings that sell a single ticket); null when it offers none.
 */
async function cheapestCharge(detail: ActivityDetail, headers: Record<string, string>): Promise<number | null> {
  let cheapest: number | null = null;
  for (const session of detail.sessions) {
    for (const tier of session.tiers.filter((t) => t.hasTicket)) {
      const offers = await buyer.call<TicketOffer[]>('/api/v8/tickets', {
        method: 'POST',
        body: { b2c: true, eventId: detail.id, ticketCategoryId: tier.id, buyType: 1 },
        headers,
      });
      expect(offers.status, offers.text).toBe(200);
      const offer = offers.body.data.find((candidate) => candidate.type === 'DIRECT_BUY')!;
      for (const group of offer.ticketGroupInfoList) {
        if (group.minQuantity > 1 || group.available < 1) continue;
        expect(group.currency).toBe(headers.currency);
        const charge = await chargeForOne(group, headers);
        cheapest = cheapest === null ? charge : Math.min(cheapest, charge);
      }
    }
  }
  return cheapest;
}

describe('every price before checkout', () => {
  for (const { language, currency, minorDigits } of CASES) {
    it(`is what checkout charges for one ticket without postage, rounded up to whole units (${language}, ${currency})`, async () => {
      const headers = { language, currency };
      const home = await buyer.call<HomeConfig>('/api/', { headers });
      expect(home.status, home.text).toBe(200);
      const cards = new Map<number, { card: ActivityCard; where: string }>();
      for (const card of [...home.body.data.rareActivities, ...home.body.data.discountActivities])
        cards.set(card.id, { card, where: 'home' });
      for (const list of LISTS) {
        const listed = await buyer.call<ListResponse>(`/api/v1/list${list}`, { headers });
        expect(listed.status, listed.text).toBe(200);
        const { result } = listed.body.data;
        expect(result.length, list).toBeGreaterThan(0);
        for (const card of result) if (!cards.has(card.id)) cards.set(card.id, { card, where: list });
        if (list.includes('sort=price') && currency === 'HKD') {
          // Sorted by the very prices the cards show: cheapest first, sold out last.
          const shown = result.map((card) => (card.soldOut ? Number.POSITIVE_INFINITY : card.lowPrice!));
          expect(shown).toEqual([...shown].sort((a, b) => a - b));
        }
      }

      let checked = 0;
      for (const { card, where } of cards.values()) {
        expect(card.currency).toBe(currency);
        if (card.soldOut) continue;
        const detail = await buyer.call<ActivityDetail>(`/api/activity/${card.id}`, { headers });
        expect(detail.status, detail.text).toBe(200);
        // Not on sale yet: checkout charges nothing until it is.
        if (!detail.body.data.bookable) continue;
        const charge = await cheapestCharge(detail.body.data, headers);
        // An activity whose every listing sells two or more tickets at a time has no single ticket to compare.
        if (charge === null) continue;
        const label = `activity ${card.id} (${where})`;
        expect(card.lowPrice, `${label}: its card`).toBe(fromPrice(charge, minorDigits));
        expect(detail.body.data.lowPriceView, `${label}: its detail page shows the card's price`).toBe(card.lowPriceView);
        checked++;
      }
      // Most cards on these pages are checked, not just a few.
      expect(checked).toBeGreaterThanOrEqual(30);
    });
  }
});
