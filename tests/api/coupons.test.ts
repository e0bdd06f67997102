import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import type { CouponList, InviteCouponPopup } from '../../src/lib/services/orders/coupons.ts';
import { welcomeNewUser } from '../../src/lib/services/accounts/invitations.ts';
import { applyOrderEvent } from '../../src/lib/services/orders/lifecycle.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { latestCode, signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';
import { eTicketSource, placeOrder } from './shop.ts';

const DAY = 86_400_000;

async function heldCodes(userId: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    'SELECT c.code FROM user_coupons u JOIN coupons c ON c.id = u.coupon_id WHERE u.user_id = ? ORDER BY u.id',
  )
    .bind(userId)
    .all<{ code: string }>();
  return results.map((row) => row.code);
}

async function give(userId: number, code: string, status = 'unused'): Promise<void> {
  await env.DB.prepare('INSERT INTO user_coupons (user_id, coupon_id, status) SELECT ?, id, ? FROM coupons WHERE code = ?')
    .bind(userId, status, code)
    .run();
}

function userIdOf(client: TestClient): number {
  return Number(client.cookies.get('pnid'));
}

beforeAll(async () => {
  await seed();
  // An expired coupon, for the expired tab (the seed's coupons are all valid around today).
  await env.DB.prepare(
    `INSERT INTO coupons (code, name_en, name_zh_hant, name_zh_hans, kind, fold_tenths, min_spend, new_user_only, bundle_count, valid_from, valid_to, purpose)
     VALUES ('SUMMER80', '20% off last summer', '夏日八折', '夏日八折', 'rate', 80, 0, 0, 1, ?, ?, 'general')`,
  )
    .bind(Date.now() - 200 * DAY, Date.now() - 100 * DAY)
    .run();
});

describe('the new-user gift', () => {
  it('comes with every new account, once', async () => {
    const client = await signedInClient('gift');
    expect(await heldCodes(userIdOf(client))).toEqual(['WELCOME100']);
  });

  it('grants a bundle coupon as bundle_count coupons', async () => {
    await env.DB.prepare("UPDATE coupons SET bundle_count = 3 WHERE code = 'WELCOME100'").run();
    try {
      const client = await signedInClient('bundle');
      expect(await heldCodes(userIdOf(client))).toEqual(['WELCOME100', 'WELCOME100', 'WELCOME100']);
      const list = await client.call<CouponList>('/api/v1/coupon/list');
      expect(list.body.data.items).toHaveLength(1);
      expect(list.body.data.items[0]).toMatchObject({ code: 'WELCOME100', count: 3, bundleCount: 3 });
      expect(list.body.data.counts.usable).toBe(3);
    } finally {
      await env.DB.prepare("UPDATE coupons SET bundle_count = 1 WHERE code = 'WELCOME100'").run();
    }
  });

  it('is granted once when the same registration is retried concurrently', async () => {
    const email = 'retry-gift@example.com';
    const sender = new TestClient();
    expect((await sender.post('/api/v1/user/mail/regVerify', { email })).status).toBe(200);
    const code = await latestCode(email);
    const body = { email, code, password: 'Tickets2026', agreement: true };
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => new TestClient().post<{ user: { userId: number } }>('/api/v1/user/mail/register', body)),
    );
    const created = answers.filter((answer) => answer.status === 200);
    expect(created).toHaveLength(1);
    for (const answer of answers.filter((one) => one.status !== 200))
      expect(answer.body.errorCode).toMatch(/^(code_wrong|registration_failed)$/);
    expect(await heldCodes(created[0].body.data.user.userId)).toEqual(['WELCOME100']);
  });

  it('is granted once however often the grant runs, even at the same time', async () => {
    const client = await signedInClient('regrant');
    const userId = userIdOf(client);
    const db = database(env.DB);
    await Promise.all(Array.from({ length: 5 }, () => welcomeNewUser(db, userId, null, Date.now())));
    expect(await heldCodes(userId)).toEqual(['WELCOME100']);
  });
});

describe('My Coupons', () => {
  it('needs a session and a known tab', async () => {
    expect((await new TestClient().call('/api/v1/coupon/list')).status).toBe(401);
    const client = await signedInClient('tabs');
    const bad = await client.call('/api/v1/coupon/list?tab=all');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ errorCode: 'invalid_input', field: 'tab' });
  });

  it('sorts coupons into usable, used and expired with every tab counted', async () => {
    const client = await signedInClient('tabs');
    const userId = userIdOf(client);
    await give(userId, 'SHOWTIME85');
    await give(userId, 'SAVE50', 'used');
    await give(userId, 'CONCERT90', 'locked');
    await give(userId, 'SUMMER80');
    const usable = await client.call<CouponList>('/api/v1/coupon/list?tab=usable');
    expect(usable.body.data.counts).toEqual({ usable: 2, used: 2, expired: 1 });
    expect(usable.body.data.items.map((item) => item.code).sort()).toEqual(['SHOWTIME85', 'WELCOME100']);
    const used = await client.call<CouponList>('/api/v1/coupon/list?tab=used');
    expect(used.body.data.items.map((item) => [item.code, item.state]).sort()).toEqual([
      ['CONCERT90', 'locked'],
      ['SAVE50', 'used'],
    ]);
    const expired = await client.call<CouponList>('/api/v1/coupon/list?tab=expired');
    expect(expired.body.data.items.map((item) => [item.code, item.state])).toEqual([['SUMMER80', 'expired']]);
  });

  it("shows a rate as a fold and percent off, an amount in its currency and in the user's, and where it applies", async () => {
    const client = await signedInClient('labels');
    await give(userIdOf(client), 'SHOWTIME85');
    await give(userIdOf(client), 'CONCERT90');
    const list = await client.call<CouponList>('/api/v1/coupon/list', { headers: { currency: 'TWD', language: 'zh-HK' } });
    const byCode = new Map(list.body.data.items.map((item) => [item.code, item]));
    expect(byCode.get('SHOWTIME85')).toMatchObject({
      kind: 'rate',
      fold: '8.5',
      percentOff: 15,
      amount: null,
      category: null,
      newUserOnly: false,
    });
    expect(byCode.get('CONCERT90')).toMatchObject({ fold: '9', percentOff: 10, category: { id: 1, name: '演唱會' } });
    const gift = byCode.get('WELCOME100')!;
    expect(gift).toMatchObject({ kind: 'amount', newUserOnly: true, amount: { amount: 10_000, currency: 'HKD' } });
    // At the seeded 4.1 TWD per HKD: the amount as checkout converts it, the minimum rounded up.
    expect(gift.amountInUserCurrency).toMatchObject({ amount: 410, currency: 'TWD' });
    expect(gift.minSpend).toMatchObject({ amount: 50_000, currency: 'HKD' });
    expect(gift.minSpendInUserCurrency).toMatchObject({ amount: 2050, currency: 'TWD' });
    expect(gift.name).toBe('新用戶禮遇');
    expect(gift.validTo).toBeGreaterThan(gift.validFrom);
    const sameCurrency = await client.call<CouponList>('/api/v1/coupon/list', { headers: { currency: 'HKD' } });
    expect(sameCurrency.body.data.items.find((item) => item.code === 'WELCOME100')!.amountInUserCurrency).toBeNull();
  });
});

describe('a coupon pays for one order only', () => {
  it('lets exactly one of two concurrent orders use the same coupon', async () => {
    const pick = await env.DB.prepare(
      `SELECT l.id AS listingId FROM listings l
       JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
       WHERE l.status = 'active' AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 86400000
         AND a.real_name_required = 0 AND instr(l.delivery_types, 'e_ticket') > 0
       ORDER BY l.id LIMIT 1`,
    )
      .bind(Date.now())
      .first<{ listingId: number }>();
    await env.DB.prepare('UPDATE listings SET quantity_available = 50, quantity_total = 50 WHERE id = ?').bind(pick!.listingId).run();
    const client = await signedInClient('oneorder');
    await give(userIdOf(client), 'SHOWTIME85');
    const quoted = await client.call<CheckoutQuote>(`/api/v1/checkout/quote?listingId=${pick!.listingId}&quantity=1&deliveryType=e_ticket`);
    const coupon = quoted.body.data.coupons.find((option) => option.name.includes('15%'))!;
    const withCoupon = await client.call<CheckoutQuote>(
      `/api/v1/checkout/quote?listingId=${pick!.listingId}&quantity=1&deliveryType=e_ticket&coupon=${coupon.userCouponId}`,
    );
    const body = {
      listingId: pick!.listingId,
      quantity: 1,
      deliveryType: 'e_ticket',
      paymentMethod: 'visa',
      coupon: coupon.userCouponId,
      acceptNotes: true,
      expectedTotal: withCoupon.body.data.cost.total,
    };
    const answers = await Promise.all(
      ['first', 'second'].map((name) =>
        client.call<OrderDetail>('/api/v1/orders', {
          method: 'POST',
          body,
          headers: { 'idempotency-key': `one-coupon-${name}-${Date.now()}` },
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(answers.find((answer) => answer.status === 409)!.body.errorCode).toBe('coupon_not_usable');
    const row = await env.DB.prepare('SELECT status, order_id FROM user_coupons WHERE id = ?')
      .bind(coupon.userCouponId)
      .first<{ status: string; order_id: number }>();
    expect(row).toEqual({ status: 'locked', order_id: answers.find((answer) => answer.status === 200)!.body.data.id });
  });
});

describe('pop-up boxes', () => {
  it('answers the HOME scene by GET as by POST, and refuses a malformed scene', async () => {
    const byGet = await new TestClient().call<{ id: number; sceneType: string }[]>('/api/v1/popBox/list?sceneType=HOME');
    const byPost = await new TestClient().post<{ id: number }[]>('/api/v1/popBox/list', { sceneTypeList: ['HOME'] });
    expect(byGet.status).toBe(200);
    expect(byGet.body.data.map((box) => box.id)).toEqual(byPost.body.data.map((box) => box.id));
    expect(byGet.body.data.length).toBeGreaterThan(0);
    const bad = await new TestClient().call('/api/v1/popBox/list?sceneType=home;drop');
    expect(bad.status).toBe(400);
    expect(bad.body.field).toBe('sceneType');
  });

  it("lists a user's invite coupons in their currency, and none after the pop-ups were shown", async () => {
    expect((await new TestClient().call('/api/v1/popBox/inviteCoupon/list')).status).toBe(401);
    const inviter = await signedInClient('popinviter');
    const { body: me } = await inviter.call<{ inviteCode: string }>('/api/v1/invitation');
    const friend = new TestClient();
    const email = 'popfriend@example.com';
    await friend.post('/api/v1/user/mail/regVerify', { email });
    const registered = await friend.post('/api/v1/user/mail/register', {
      email,
      code: await latestCode(email),
      password: 'Tickets2026',
      agreement: true,
      inviteCode: me.data.inviteCode,
    });
    expect(registered.status).toBe(200);

    const friendPopups = await friend.call<InviteCouponPopup[]>('/api/v1/popBox/inviteCoupon/list', { headers: { currency: 'USD' } });
    expect(friendPopups.body.data).toHaveLength(1);
    expect(friendPopups.body.data[0]).toMatchObject({
      type: 'invitee',
      count: 1,
      amount: { amount: 6_000, currency: 'HKD' },
      mainCurrencyVO: { code: 'USD' },
    });
    expect(friendPopups.body.data[0].mainAmount!.currency).toBe('USD');

    // The inviter's reward (and its pop-up) comes with the friend's first paid order.
    expect((await inviter.call<InviteCouponPopup[]>('/api/v1/popBox/inviteCoupon/list')).body.data).toEqual([]);
    const placed = await placeOrder(friend, (await eTicketSource()).listingId, 1);
    expect(placed.status, placed.text).toBe(200);
    expect(await applyOrderEvent(database(env.DB), (placed.body.data as OrderDetail).id, 'payment_confirmed', Date.now())).toBe(true);
    const inviterPopups = await inviter.call<InviteCouponPopup[]>('/api/v1/popBox/inviteCoupon/list');
    expect(inviterPopups.body.data).toHaveLength(1);
    expect(inviterPopups.body.data[0]).toMatchObject({
      type: 'inviter',
      amount: { amount: 5_000, currency: 'HKD' },
      mainCurrencyVO: { code: 'HKD' },
    });

    inviter.cookies.set('inviteCouponSeen', `${userIdOf(inviter)}.${inviterPopups.body.data[0].id}`);
    expect((await inviter.call<InviteCouponPopup[]>('/api/v1/popBox/inviteCoupon/list')).body.data).toEqual([]);
    // Another user's mark says nothing about this user.
    friend.cookies.set('inviteCouponSeen', `${userIdOf(inviter)}.${inviterPopups.body.data[0].id}`);
    expect((await friend.call<InviteCouponPopup[]>('/api/v1/popBox/inviteCoupon/list')).body.data).toHaveLength(1);
  });
});
