/**
 * One listing's money from the card to the order's message, in every page language and in two
 * currencies whose symbols a locale could leave bare (TWD is "$" to Intl in zh-TW, USD in en): the
 * card's "from" price is the all-in price of one ticket rounded up to whole units, and that all-in
 * price is the one price per ticket on the picker, the confirm page, the pay page, the order page and
 * the "order placed" email, with the same total everywhere; no page or message writes a bare "$".
 */
import { expect, test, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { formatMoney } from '../../src/lib/domain/money.ts';
import { allInAmount, fromPrice } from '../../src/lib/domain/pricing.ts';
import type { ActivityCard, HomeConfig } from '../../src/lib/services/catalogue/catalogue.ts';
import type { TicketGroupInfo } from '../../src/lib/services/catalogue/ticket-offers.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { codeFor, ownClientAddress, uniqueEmail } from './auth-helpers.ts';
import { fixture } from './fixtures.ts';
import { BASE_URL, detailOf, escapeRegExp, hydratedInView, localeOf, offerOf, type Locale, type PagePrefix } from './shop-helpers.ts';

const PREFIXES: readonly PagePrefix[] = ['en', 'zh-HK', 'zh-TW', 'zh-CN'];
const CURRENCIES = [
  { currency: 'TWD', minorDigits: 0 },
  { currency: 'USD', minorDigits: 2 },
] as const;

/** Tickets bought in each journey: a total of two shows that the total is twice the price per ticket. */
const QUANTITY = 2;
/** Tickets the journey's own listing has beyond the journey's. */
const SPARE_TICKETS = 4;
const DAY = 24 * 3600 * 1000;
/** The journeys' own sessions are this many days away and more, one day apart: no other spec's are. */
const FIRST_DAY_AHEAD = 61;

/** A "$" not preceded by a letter: a dollar that does not say whose (NT$, HK$, US$, S$ and MOP$ do). */
const BARE_DOLLAR = /(^|[^A-Za-z])\$/;

test.beforeEach(async ({ context }, testInfo) => {
  // Eight journeys through five pages and a queued email each.
  test.slow();
  await ownClientAddress(context, testInfo);
});

interface Target {
  card: ActivityCard;
  sessionLabel: string;
  tierName: string;
  listing: TicketGroupInfo;
}

/**
 * The first home-page activity on sale (and not real-name) that sells two tickets an order, and a copy
 * of its cheapest listing (so its card shows that listing's price) on a tier of a new session
 * `daysAhead` days away, with e-tickets to spare: the journey's own, which no other test buys from.
 */
async function homeTarget(request: APIRequestContext, prefix: PagePrefix, currency: string, daysAhead: number): Promise<Target> {
  const headers = { language: prefix, currency };
  const home = (await (await request.get('/api/', { headers })).json()).data as HomeConfig;
  for (const card of [...home.rareActivities, ...home.discountActivities]) {
    const detail = await detailOf(request, card.id, prefix);
    if (!detail?.bookable || card.soldOut || detail.realNameRequired || detail.numMin > QUANTITY || detail.numMax < QUANTITY) continue;
    const offers: { tierId: number; group: TicketGroupInfo }[] = [];
    for (const session of detail.sessions.filter((one) => one.hasTicket)) {
      for (const tier of session.tiers.filter((t) => t.hasTicket)) {
        const { ticketGroupInfoList } = await offerOf(request, card.id, tier.id, headers);
        offers.push(...ticketGroupInfoList.map((group) => ({ tierId: tier.id, group })));
      }
    }
    const cheapest = offers.sort((a, b) => a.group.ticketGroup.salePrice - b.group.ticketGroup.salePrice)[0];
    if (!cheapest) continue;
    const startsAt = Date.now() + daysAhead * DAY;
    const session = await fixture('create-session', { activityId: card.id, startsAt, endsAt: startsAt + 3 * 3600_000 });
    const tier = await fixture('copy-tier', { sessionId: session.id, fromTierId: cheapest.tierId });
    const copy = await fixture('copy-listing', {
      tierId: tier.id,
      fromListingId: cheapest.group.ticketGroup.id,
      quantity: QUANTITY + SPARE_TICKETS,
      deliveryTypes: 'e_ticket',
    });
    const ownSession = (await detailOf(request, card.id, prefix))!.sessions.find((one) => one.id === session.id)!;
    const { ticketGroupInfoList } = await offerOf(request, card.id, tier.id, headers);
    const listing = ticketGroupInfoList.find((group) => group.ticketGroup.id === copy.id)!;
    expect(listing.ticketGroup.salePrice, 'the copy sells at the cheapest price').toBe(cheapest.group.ticketGroup.salePrice);
    return { card, sessionLabel: ownSession.label, tierName: ownSession.tiers.find((t) => t.id === tier.id)!.specification, listing };
  }
  throw new Error(`No home-page activity in ${currency} sells ${QUANTITY} tickets an order`);
}

async function languageAndCurrency(context: BrowserContext, prefix: PagePrefix, currency: string): Promise<void> {
  await context.addCookies([
    { name: 'currencyCode', value: currency, url: BASE_URL },
    { name: 'language', value: prefix, url: BASE_URL },
  ]);
}

/** A new email account signed in on `request`, in the page language, so its messages come in that language. */
async function signUpIn(request: APIRequestContext, prefix: PagePrefix): Promise<string> {
  const email = uniqueEmail(`money-${prefix}`);
  const headers = { language: prefix };
  expect((await request.post('/api/v1/user/mail/regVerify', { data: { email }, headers })).status()).toBe(200);
  const registered = await request.post('/api/v1/user/mail/register', {
    data: { email, code: await codeFor(request, email), password: 'Tickets2026', agreement: true },
    headers,
  });
  expect(registered.status(), await registered.text()).toBe(200);
  return email;
}

/** Checks the visible text of a page's main content for a bare "$". */
async function noBareDollar(page: Page, where: string): Promise<void> {
  // biome-ignore lint/performance/useDomNodeTextContent: the text a buyer reads, never a script's or a hidden element's.
  const text = await page.getByRole('main').innerText();
  expect(text, `${where} writes a bare "$"`).not.toMatch(BARE_DOLLAR);
}

/** The description of a term in a page's description lists. */
function definition(page: Page, term: string) {
  return page.getByRole('term').filter({ hasText: term }).first().locator('xpath=following-sibling::dd[1]');
}

/** The "from" price on the card of `name` in a list of cards. */
async function cardPrice(page: Page, l: Locale, name: string): Promise<string> {
  const card = page
    .getByRole('article')
    .filter({ has: page.getByRole('heading', { name, exact: true }) })
    .first();
  await expect(card).toContainText(l.say('card.allIn'));
  return (await card.getByText(/\+$/).first().textContent()) ?? '';
}

for (const [prefixIndex, prefix] of PREFIXES.entries()) {
  for (const [currencyIndex, { currency, minorDigits }] of CURRENCIES.entries()) {
    test(`one price per ticket from the card to the order's message (${prefix}, ${currency})`, async ({ browser, page, context }) => {
      const l = localeOf(prefix);
      const target = await homeTarget(page.request, prefix, currency, FIRST_DAY_AHEAD + prefixIndex * CURRENCIES.length + currencyIndex);
      const money = (amount: number) => formatMoney({ amount, currency }, prefix, minorDigits);
      const perTicket = allInAmount(target.listing.ticketGroup.salePrice, 1);
      const each = money(perTicket);
      const total = money(QUANTITY * perTicket);
      expect(each).not.toMatch(BARE_DOLLAR);
      expect(target.listing.salePriceView, 'the API writes the price per ticket as the formatter does').toBe(each);

      // The card, as an anonymous visitor sees it: the price per ticket rounded up to whole units.
      const visitor = await browser.newContext();
      await languageAndCurrency(visitor, prefix, currency);
      const browsing = await visitor.newPage();
      await browsing.goto(`/${prefix}/`);
      await noBareDollar(browsing, 'home page');
      expect(await cardPrice(browsing, l, target.card.name)).toBe(`${money(fromPrice(perTicket, minorDigits))}+`);
      await visitor.close();

      // The picker: the listing at its price per ticket, and the total of two.
      const email = await signUpIn(page.request, prefix);
      await languageAndCurrency(context, prefix, currency);
      await page.goto(`/${prefix}/activity/${target.card.id}`);
      await hydratedInView(page, 'TicketPicker');
      await page.getByRole('radio', { name: target.sessionLabel, exact: true }).check();
      await page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(target.tierName)}`) }).check();
      await page.getByRole('radio', { name: new RegExp(`^${escapeRegExp(l.say('detail.picker.each', { price: each }))}`) }).check();
      await page.getByRole('combobox', { name: l.say('detail.picker.quantity') }).selectOption(String(QUANTITY));
      await expect(page.getByRole('status', { name: l.say('detail.picker.total') })).toHaveText(total);
      await noBareDollar(page, 'activity page');
      await page.getByRole('button', { name: l.say('detail.picker.buy') }).click();
      await page.waitForURL(/\/order\/confirm\?/);

      // The confirm page: the same price per ticket, the fee included in it, the same total.
      const confirmUrl = new URL(page.url());
      confirmUrl.searchParams.set('deliveryType', 'e_ticket');
      confirmUrl.searchParams.set('coupon', 'none');
      await page.goto(confirmUrl.href);
      await expect(definition(page, l.say('confirm.unitPrice'))).toHaveText(`${each} ${l.say('confirm.unitPriceAllIn')}`);
      const cost = page.getByRole('region', { name: l.say('confirm.cost.heading') });
      await expect(cost).toContainText(l.say('confirm.cost.ticketDetail', { price: each, count: QUANTITY }));
      await expect(cost).toContainText(
        l.say('confirm.cost.serviceFeeIncluded', { amount: money(QUANTITY * perTicket - QUANTITY * target.listing.ticketGroup.salePrice) }),
      );
      await expect(page.getByRole('status', { name: l.say('confirm.cost.total'), exact: true })).toHaveText(total);
      await noBareDollar(page, 'confirm page');
      const quoted = await page.request.get('/api/v1/checkout/quote', {
        params: { listingId: target.listing.ticketGroup.id, quantity: QUANTITY, deliveryType: 'e_ticket', coupon: 'none' },
        headers: { language: prefix, currency },
      });
      const quote = (await quoted.json()).data as CheckoutQuote;
      expect(quote.allInUnitPrice.formatted).toBe(each);
      await hydratedInView(page, 'ConfirmOrder');
      await page.getByRole('radio', { name: l.say(`payment.${quote.paymentMethods[0]}`), exact: true }).check();
      await page.getByRole('checkbox', { name: l.say('confirm.notes.accept') }).check();
      await page.getByRole('button', { name: l.say('confirm.submit') }).click();
      await page.waitForURL(new RegExp(`/${prefix}/order/\\d+/pay$`));
      const orderId = Number(new URL(page.url()).pathname.split('/').at(-2));
      const order = (await (await page.request.get(`/api/v1/orders/${orderId}`, { headers: { language: prefix } })).json())
        .data as OrderDetail;
      expect(order.cost.currency).toBe(currency);
      expect(order.cost.total).toBe(QUANTITY * perTicket);

      // The pay page: the tickets at the same price, the same total.
      await expect(page.getByRole('main')).toContainText(
        l.say('payment.page.ticketsValue', { tier: order.tier.name, quantity: QUANTITY, price: each }),
      );
      await expect(definition(page, l.say('payment.page.total'))).toHaveText(total);
      await noBareDollar(page, 'pay page');

      // The order page: the same price per ticket, the tickets with their fee, the same total.
      await page.goto(`/${prefix}/orders/${orderId}`);
      await expect(definition(page, l.say('orders.detail.unitPrice'))).toHaveText(`${each}${l.say('orders.detail.unitPriceAllIn')}`);
      await expect(definition(page, l.say('orders.detail.ticketPrice'))).toHaveText(total);
      await expect(definition(page, l.say('orders.detail.totalPayment'))).toHaveText(total);
      await noBareDollar(page, 'order page');

      // The "order placed" email, through the queue: the same price per ticket and total.
      const ticketsLine = l.say('message.common.ticketsLine', { tier: order.tier.name, quantity: QUANTITY, unitPrice: each, total });
      let message = '';
      await expect
        .poll(
          async () => {
            const response = await page.request.get(`/api/v1/dev/outbox?target=${encodeURIComponent(email)}`);
            const rows = (await response.json()).data as { subject: string; body: string }[];
            message = rows.find((row) => row.body.includes(order.orderNo))?.body ?? '';
            return message;
          },
          { timeout: 30_000 },
        )
        .toContain(ticketsLine);
      expect(message, 'the email writes a bare "$"').not.toMatch(BARE_DOLLAR);
    });
  }
}
