/**
 * A signed-out visitor on an on-sale show learns that a sold-out tier has a waitlist, and its
 * sign-in link brings them back to that tier's waitlist. The tier is the test's own (a copy of a
 * seeded listing in a new session, its stock then emptied), so no other spec touches it.
 */
import { expect, test } from '@playwright/test';
import { waitlistAnchor } from '../../src/lib/domain/waitlist-anchor.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { fixture, listingOnSale } from './fixtures.ts';
import { detailOf, hydratedInView, localeOf } from './shop-helpers.ts';

const DAY = 24 * 3600 * 1000;

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

for (const l of [localeOf('en'), localeOf('zh-TW')]) {
  test(`a signed-out visitor sees a sold-out tier's waitlist and signs in back to it (${l.prefix})`, async ({ browser, page }) => {
    const source = await listingOnSale({
      activityStates: ['onSale'],
      realNames: false,
      eTicket: true,
      sellerListed: true,
      orderOf: 2,
      order: 'oldest',
      offset: 9,
    });
    const startsAt = Date.now() + (l.prefix === 'en' ? 33 : 34) * DAY;
    const session = await fixture('create-session', { activityId: source!.activityId, startsAt, endsAt: startsAt + 3 * 3600_000 });
    const tier = await fixture('copy-tier', { sessionId: session.id, fromTierId: source!.tierId, nameEn: `Visitor ${source!.tierNameEn}` });
    const listing = await fixture('copy-listing', { tierId: tier.id, fromListingId: source!.id, quantity: 2, deliveryTypes: 'e_ticket' });
    await fixture('set-listing-stock', { listingId: listing.id, quantityAvailable: 0 });

    const detail = (await detailOf(page.request, source!.activityId, l.language))!;
    expect(detail.bookable).toBe(true);
    const ownSession = detail.sessions.find((one) => one.tiers.some((t) => t.id === tier.id))!;
    const label = `${ownSession.label} · ${ownSession.tiers.find((t) => t.id === tier.id)!.specification}`;

    // Signed out: the tier says it has a waitlist, and its sign-in link names the way back.
    const visitor = await browser.newContext();
    const browsing = await visitor.newPage();
    await browsing.goto(`/${l.prefix}/activity/${source!.activityId}`);
    const waitlist = browsing.getByRole('region', { name: l.say('detail.waitlist.heading') });
    await expect(waitlist.getByText(l.say('detail.waitlist.signedOutTier', { tier: label }))).toBeVisible();
    const signIn = waitlist.getByRole('link', { name: l.say('detail.waitlist.loginTier', { tier: label }) });
    const loginUrl = new URL((await signIn.getAttribute('href'))!, browsing.url());
    expect(loginUrl.pathname).toMatch(/\/login$/);
    const back = loginUrl.searchParams.get('redirect')!;
    expect(back).toBe(`/${l.prefix}/activity/${source!.activityId}#${waitlistAnchor(tier.id)}`);
    await visitor.close();

    // Signed in, the way back opens the waitlist on that tier.
    await signUpByEmail(page.request, `waitlist-visitor-${l.prefix}`);
    await page.goto(back);
    await hydratedInView(page, 'Waitlist');
    const tierChoice = page.getByRole('combobox', { name: l.say('detail.waitlist.tier') });
    await expect(tierChoice).toHaveValue(String(tier.id));
    await expect(tierChoice).toBeFocused();
  });
}
