/**
 * The free-ticket lottery on a phone: user A joins a seeded lottery and sees one draw code (and the
 * app-download prompt), user B opens A's share link in another browser, taps Help and sees the
 * assist-success modal, and A's page then shows two codes. Also the lottery list, a visitor's
 * sign-in link, the Traditional Chinese page, and serious axe violations on both pages. Each test
 * signs up its own users; only this file touches lotteries.
 */
import { devices, expect, test, type Browser, type BrowserContext, type TestInfo } from '@playwright/test';
import type { LotteryView } from '../../src/lib/services/on-sale/lottery-views.ts';
import { ownClientAddress, signUpByEmail } from './auth-helpers.ts';
import { BASE_URL, hydratedInView, seriousViolations } from './shop-helpers.ts';

async function signedInContext(browser: Browser, testInfo: TestInfo, label: string): Promise<BrowserContext> {
  const context = await browser.newContext({ ...devices['Pixel 7'], baseURL: BASE_URL });
  await ownClientAddress(context, testInfo);
  await signUpByEmail(context.request, label);
  return context;
}

async function openLottery(context: BrowserContext, language = 'en'): Promise<LotteryView> {
  const response = await context.request.get('/api/v1/lotteries', { headers: { language } });
  const { data } = (await response.json()) as { data: LotteryView[] };
  const open = data.find((lottery) => lottery.phase === 'open');
  expect(open, 'an open lottery in the demo seed').toBeTruthy();
  return open!;
}

test('a friend helps: A joins and gets one code, B taps Help on the share link, A has two', async ({ browser }, testInfo) => {
  const alice = await signedInContext(browser, testInfo, 'lottery-a');
  const bob = await signedInContext(browser, testInfo, 'lottery-b');
  const lottery = await openLottery(alice);

  const a = await alice.newPage();
  await a.goto(`/en/overload-ticket/detail?id=${lottery.id}`);
  await expect(a.getByRole('heading', { level: 1, name: lottery.activity.name })).toBeVisible();
  await expect(a.getByText(lottery.seedCommitment)).toBeVisible();
  await hydratedInView(a, 'LotteryEntry');
  await a.getByRole('button', { name: 'Join for free' }).click();
  const appPrompt = a.getByRole('dialog', { name: 'Get the app' });
  await expect(appPrompt).toBeVisible();
  await expect(appPrompt.getByRole('link', { name: 'Download the app' })).toHaveAttribute('href', '/appInfo.html?language=en');
  await appPrompt.getByRole('button', { name: 'Not now' }).click();
  await expect(appPrompt).toBeHidden();
  await expect(a.getByRole('heading', { name: `My draw codes (1/${lottery.maxCodesPerEntry})` })).toBeVisible();
  const shareLink = await a.getByRole('textbox', { name: 'Your share link' }).inputValue();
  expect(shareLink).toMatch(/\/en\/overload-ticket\/[A-Za-z0-9_-]+\/share$/);
  await expect(a.getByRole('link', { name: 'Open the share image' })).toHaveAttribute(
    'href',
    /\/api\/v1\/lotteries\/share\/.+\/image\.svg$/,
  );

  const b = await bob.newPage();
  await b.goto(shareLink);
  await expect(b.getByText(`has 1 of ${lottery.maxCodesPerEntry} codes`)).toBeVisible();
  await hydratedInView(b, 'HelpButton');
  await b.getByRole('button', { name: 'Help', exact: true }).click();
  const thanks = b.getByRole('dialog', { name: 'Thanks for helping!' });
  await expect(thanks).toBeVisible();
  await expect(thanks).toContainText('now has 2 draw codes');
  await thanks.getByRole('button', { name: 'OK' }).click();
  await b.getByRole('dialog', { name: 'Get the app' }).getByRole('button', { name: 'Not now' }).click();
  await expect(b.getByRole('status')).toHaveText('You have helped this entry. Thank you!');

  // Helping again from a reloaded page is not offered; the server says why.
  await b.reload();
  await expect(b.getByRole('button', { name: 'Help', exact: true })).toHaveCount(0);
  await expect(b.getByText('You have helped this entry. Thank you!')).toBeVisible();

  await a.reload();
  await expect(a.getByRole('heading', { name: `My draw codes (2/${lottery.maxCodesPerEntry})` })).toBeVisible();
  await expect(a.getByText("from a friend's help")).toBeVisible();
  await alice.close();
  await bob.close();
});

test('visitors see the list and the rules in Traditional Chinese, and sign in to join or help', async ({ page, context }, testInfo) => {
  const lottery = await openLottery(context, 'zh-HK');
  await page.goto('/zh-HK/overload-ticket/detail');
  await expect(page.getByRole('heading', { level: 1, name: '免費看演出' })).toBeVisible();
  await page
    .getByRole('link', { name: `查看詳情：${lottery.activity.name}` })
    .first()
    .click();
  await page.waitForURL(new RegExp(`/zh-HK/overload-ticket/detail\\?id=${lottery.id}$`));
  await expect(page.getByRole('heading', { name: '參加流程' })).toBeVisible();
  await expect(page.getByRole('heading', { name: '規則' })).toBeVisible();
  await expect(page.getByRole('link', { name: '登入後參加' })).toHaveAttribute(
    'href',
    `/zh-HK/login?redirect=${encodeURIComponent(`/zh-HK/overload-ticket/detail?id=${lottery.id}`)}`,
  );
  expect(await seriousViolations(page)).toEqual([]);

  const sharer = await signedInContext(page.context().browser()!, testInfo, 'lottery-sharer');
  const joined = await sharer.request.post(`/api/v1/lotteries/${lottery.id}/join`, { data: {} });
  const { data } = (await joined.json()) as { data: { myEntry: { sharePath: string } } };
  await sharer.close();
  await page.goto(`/en${data.myEntry.sharePath}`);
  await expect(page.getByRole('link', { name: 'Sign in to help' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
