/**
 * Coupons and invitations on a phone: user A copies the invite link from My Invitation Code, user B
 * registers through it and sees the invitee coupon and the new-user gift in My Coupons, in the home
 * page's pop-up once and in the coupon picker of the order confirmation; A's reward waits until B
 * has paid for a first order, then shows in My Coupons and in A's home pop-up once. Then My Coupons in Traditional Chinese, and its
 * empty tabs.
 */
import { devices, expect, test, type Page } from '@playwright/test';
import { codeFor, ownClientAddress, signUpByEmail, uniqueEmail } from './auth-helpers.ts';
import { activityIds, BASE_URL, eTicketListings, localeOf, payInSandbox, placeOrder, seriousViolations } from './shop-helpers.ts';

const en = localeOf('en');
const hant = localeOf('zh-HK');
const COUPON_ACTIVITY_IDS = activityIds(1210, 1290);

const names = {
  gift: 'New-user gift',
  invitee: "Friend's welcome",
  inviter: 'Thanks for inviting',
};

async function couponNames(page: Page): Promise<string[]> {
  return page.getByRole('main').getByRole('heading', { level: 3 }).allTextContents();
}

test.beforeEach(async ({ context }, testInfo) => ownClientAddress(context, testInfo));

test('an invited friend registers through the share link and both get their coupons', async ({ page, context, browser }, testInfo) => {
  // Two accounts in two browsers, a registration by email code, axe and the coupon picker: about
  // 12 s on a quiet 2-core machine, so a busy one can need more than the default 60 s.
  test.slow();
  // A: signed in, copies the link from My Invitation Code.
  await signUpByEmail(context.request, 'inviter');
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE_URL });
  await page.goto('/en/invitation');
  await expect(page.getByRole('heading', { level: 1, name: 'My Invitation Code' })).toBeVisible();
  await page.getByRole('button', { name: en.say('coupons.invite.copy') }).click();
  await expect(page.getByRole('status').first()).toHaveText(en.say('coupons.invite.copied'));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await page.getByLabel(en.say('coupons.invite.linkLabel')).inputValue());
  const link = new URL(copied);
  const code = link.searchParams.get('inviteCode')!;
  expect(link.pathname + link.search).toBe(`/login?inviteCode=${code}`);
  await expect(page.getByRole('region', { name: en.say('coupons.invite.codeLabel') })).toContainText(code);
  await expect(page.getByRole('main')).toContainText(en.say('coupons.invite.noFriends'));
  expect(await seriousViolations(page)).toEqual([]);
  // Your own code is refused, with the server's message.
  await page.getByLabel(en.say('coupons.invite.acceptLabel')).fill(code.toLowerCase());
  await page.getByRole('button', { name: en.say('coupons.invite.acceptSubmit') }).click();
  await expect(page.getByRole('region', { name: en.say('coupons.invite.acceptHeading') }).getByRole('status')).toHaveText(
    en.say('error.invite_self'),
  );

  // B: another browser, registers through the link.
  const friendContext = await browser.newContext({ ...devices['Pixel 7'], baseURL: BASE_URL });
  await ownClientAddress(friendContext, testInfo);
  const friend = await friendContext.newPage();
  await friend.goto(`${link.pathname}${link.search}`);
  await expect(friend.getByRole('note')).toContainText(/invited you: register to get your welcome coupons/);
  await expect(friend.getByRole('button', { name: 'Log in / Register' })).toBeEnabled();
  await friend.getByRole('tab', { name: 'Email' }).click();
  await friend.getByRole('button', { name: 'Register with email' }).click();
  const email = uniqueEmail('invitee');
  await friend.getByLabel('Email address').fill(email);
  await friend.getByRole('button', { name: 'Send code' }).click();
  await expect(friend.getByRole('status')).toContainText('Verification code was sent');
  await friend.getByLabel('Verification code').fill(await codeFor(friend.request, email));
  await friend.getByLabel('Password', { exact: true }).fill('Tickets2026');
  await friend.getByRole('checkbox', { name: /I have read and agree to the User Agreement/ }).check();
  await friend.getByRole('button', { name: 'Register with email' }).click();
  await friend.waitForURL(`${BASE_URL}/`);

  // B's home page shows the invitee pop-up once, with the amount in B's currency.
  const friendBoxes = friend.getByRole('dialog');
  await expect(friendBoxes).toContainText(en.say('coupons.popup.invitee.title'));
  await expect(friendBoxes).toContainText('HK$60 off');
  await friend.reload();
  await expect(friend.getByRole('heading', { level: 1 })).toBeAttached();
  await expect(friend.getByText(en.say('coupons.popup.invitee.title'))).toHaveCount(0);

  // B's coupons.
  await friend.goto('/en/couponList');
  await expect(friend.getByRole('link', { name: 'Usable (2)' })).toHaveAttribute('aria-current', 'page');
  expect((await couponNames(friend)).sort()).toEqual([names.invitee, names.gift].sort());
  const gift = friend.getByRole('article', { name: names.gift });
  await expect(gift).toContainText('HK$100 off');
  await expect(gift).toContainText('On tickets over HK$500');
  await expect(gift).toContainText(en.say('coupons.newUserOnly'));
  await expect(gift).toContainText(en.say('coupons.appliesAll'));
  await expect(gift).toContainText(/Valid \d{2}\/\d{2}\/\d{4} – \d{2}\/\d{2}\/\d{4}/);

  // B's coupons at checkout: the picker lists both.
  const [listing] = await eTicketListings(friend.request, { ids: COUPON_ACTIVITY_IDS, spare: 1 });
  await friend.goto(`/en/order/confirm?listingId=${listing.id}&quantity=${listing.quantity}`);
  const picker = friend.getByRole('group', { name: 'Coupons' });
  await expect(picker).toContainText(names.gift);
  await expect(picker).toContainText(names.invitee);

  // A: the friend joined, but A's reward waits for the friend's first paid order.
  await page.goto('/en/invitation');
  await expect(page.getByRole('heading', { name: en.say('coupons.invite.friends', { count: 1 }) })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(en.say('coupons.invite.reward.waiting'));
  await page.goto('/en/couponList');
  expect(await couponNames(page)).toEqual([names.gift]);

  // B pays for a first order.
  await payInSandbox(friend, await placeOrder(friend.request, listing));

  // A: the inviter coupon arrived, and the home pop-up says so once.
  await page.goto('/en/');
  await expect(page.getByRole('dialog')).toContainText(en.say('coupons.popup.inviter.title'));
  await page.goto('/en/couponList');
  expect((await couponNames(page)).sort()).toEqual([names.inviter, names.gift].sort());
  await page.goto('/en/invitation');
  await expect(page.getByRole('main')).toContainText(en.say('coupons.invite.reward.granted'));
  await friendContext.close();
});

test('My Coupons in Traditional Chinese and New Taiwan dollars, with an empty state per tab', async ({ page, context }) => {
  await signUpByEmail(context.request, 'coupons-hant');
  await context.addCookies([{ name: 'currencyCode', value: 'TWD', url: BASE_URL }]);
  await page.goto('/zh-HK/couponList');
  await expect(page.getByRole('heading', { level: 1, name: '我的優惠券' })).toBeVisible();
  const gift = page.getByRole('article', { name: '新用戶禮遇' });
  await expect(gift).toContainText(hant.say('coupons.newUserOnly'));
  // In the buyer's currency, "about" what checkout converts the coupon's HK$100 and HK$500 to at 4.1 per HKD.
  await expect(gift).toContainText(hant.say('coupons.amountOff', { amount: hant.say('coupons.converted', { amount: 'NT$410' }) }));
  await expect(gift).toContainText(hant.say('coupons.ownAmount', { amount: 'HK$100' }));
  await expect(gift).toContainText(hant.say('coupons.minSpend', { amount: hant.say('coupons.converted', { amount: 'NT$2,050' }) }));
  await page.getByRole('link', { name: hant.say('coupons.tab.used', { count: 0 }) }).click();
  await page.waitForURL(/\/zh-HK\/couponList\?tab=used$/);
  await expect(page.getByRole('main')).toContainText(hant.say('coupons.empty.used'));
  await page.getByRole('link', { name: hant.say('coupons.tab.expired', { count: 0 }) }).click();
  await expect(page.getByRole('main')).toContainText(hant.say('coupons.empty.expired'));
  await expect(page.getByRole('link', { name: hant.say('coupons.empty.invite') })).toHaveAttribute('href', '/zh-HK/invitation');
  expect(await seriousViolations(page)).toEqual([]);
});
