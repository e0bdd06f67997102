import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import type { InvitationView } from '../../src/lib/services/accounts/invitations.ts';
import { applyOrderEvent } from '../../src/lib/services/orders/lifecycle.ts';
import type { CheckoutQuote, OrderDetail } from '../../src/lib/services/orders/presenters.ts';
import { INVITER_REWARDS_PER_MONTH } from '../../src/lib/config/accounts.ts';
import { latestCode, signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

let emails = 0;
let purchases = 0;

async function heldCodes(userId: number): Promise<string[]> {
  const { results } = await env.DB.prepare(
    'SELECT c.code FROM user_coupons u JOIN coupons c ON c.id = u.coupon_id WHERE u.user_id = ? ORDER BY c.code',
  )
    .bind(userId)
    .all<{ code: string }>();
  return results.map((row) => row.code);
}

function userIdOf(client: TestClient): number {
  return Number(client.cookies.get('pnid'));
}

async function inviteCodeOf(client: TestClient): Promise<string> {
  const answer = await client.call<InvitationView>('/api/v1/invitation');
  expect(answer.status).toBe(200);
  return answer.body.data.inviteCode;
}

/** Registers a new email account through the real flow, sending `inviteCode` with the registration. */
async function registerWith(inviteCode: string | undefined, client = new TestClient(), headers: Record<string, string> = {}) {
  const email = `friend${++emails}@example.com`;
  await client.post('/api/v1/user/mail/regVerify', { email });
  const code = await latestCode(email);
  const answer = await client.call<{ user: { userId: number } }>('/api/v1/user/mail/register', {
    method: 'POST',
    body: { email, code, password: 'Tickets2026', agreement: true, inviteCode },
    headers,
  });
  return { client, answer, email, code };
}

async function invitationRows(inviteeId: number) {
  const { results } = await env.DB.prepare('SELECT inviter_id AS inviterId FROM invitations WHERE invitee_id = ?')
    .bind(inviteeId)
    .all<{ inviterId: number }>();
  return results;
}

/** Places an e-ticket order for one ticket and confirms its payment, as the provider's webhook would; answers the order id. */
async function buyOnce(buyer: TestClient): Promise<number> {
  const pick = await env.DB.prepare(
    `SELECT l.id AS listingId FROM listings l
     JOIN ticket_tiers t ON t.id = l.tier_id JOIN activity_sessions s ON s.id = t.session_id JOIN activities a ON a.id = s.activity_id
     WHERE l.status = 'active' AND l.quantity_available >= 1 AND a.status IN (1, 4) AND a.sale_starts_at <= ?1 AND s.starts_at > ?1 + 86400000
       AND a.real_name_required = 0 AND instr(l.delivery_types, 'e_ticket') > 0
     ORDER BY l.quantity_available DESC, l.id LIMIT 1`,
  )
    .bind(Date.now())
    .first<{ listingId: number }>();
  const quoted = await buyer.call<CheckoutQuote>(
    `/api/v1/checkout/quote?listingId=${pick!.listingId}&quantity=1&deliveryType=e_ticket&coupon=none`,
  );
  const placed = await buyer.call<OrderDetail>('/api/v1/orders', {
    method: 'POST',
    body: {
      listingId: pick!.listingId,
      quantity: 1,
      deliveryType: 'e_ticket',
      paymentMethod: 'visa',
      coupon: 'none',
      acceptNotes: true,
      expectedTotal: quoted.body.data.cost.total,
    },
    headers: { 'idempotency-key': `paid-${Date.now()}-${++purchases}` },
  });
  expect(placed.status, placed.text).toBe(200);
  expect(await applyOrderEvent(database(env.DB), placed.body.data.id, 'payment_confirmed', Date.now())).toBe(true);
  return placed.body.data.id;
}

async function rewardOf(inviteeId: number) {
  return env.DB.prepare('SELECT reward_state AS state, reward_order_id AS orderId FROM invitations WHERE invitee_id = ?')
    .bind(inviteeId)
    .first<{ state: string; orderId: number | null }>();
}

beforeAll(async () => {
  await seed();
});

describe('My Invitation Code', () => {
  it('needs a session', async () => {
    expect((await new TestClient().call('/api/v1/invitation')).status).toBe(401);
  });

  it('answers the code, a share link carrying it to registration, and both rewards', async () => {
    const client = await signedInClient('mine');
    const { body } = await client.call<InvitationView>('/api/v1/invitation');
    expect(body.data.inviteCode).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    expect(body.data.sharePath).toBe(`/login?inviteCode=${body.data.inviteCode}`);
    expect(body.data).toMatchObject({ invitedBy: null, canAccept: true, friends: [] });
    expect(body.data.rewards.invitee[0].amount).toMatchObject({ amount: 6_000, currency: 'HKD' });
    expect(body.data.rewards.inviter[0].amount).toMatchObject({ amount: 5_000, currency: 'HKD' });
  });
});

describe('registering with an invite code', () => {
  it("records the invitation and grants the invitee coupons; the inviter's reward waits for the friend's first paid order", async () => {
    const inviter = await signedInClient('inviter');
    const { answer, client: friend } = await registerWith(await inviteCodeOf(inviter));
    expect(answer.status).toBe(200);
    const inviteeId = answer.body.data.user.userId;
    expect(await heldCodes(inviteeId)).toEqual(['FRIEND60', 'WELCOME100']);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['WELCOME100']);
    expect(await invitationRows(inviteeId)).toEqual([{ inviterId: userIdOf(inviter) }]);
    const invitedBy = await env.DB.prepare('SELECT invited_by FROM users WHERE id = ?').bind(inviteeId).first<number>('invited_by');
    expect(invitedBy).toBe(userIdOf(inviter));
    const view = await inviter.call<InvitationView>('/api/v1/invitation');
    expect(view.body.data.friends).toHaveLength(1);

    const orderId = await buyOnce(friend);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['THANKS50', 'WELCOME100']);
    expect(await rewardOf(inviteeId)).toEqual({ state: 'granted', orderId });
    // A repeated confirmation and the friend's next order grant nothing more.
    expect(await applyOrderEvent(database(env.DB), orderId, 'payment_confirmed', Date.now())).toBe(false);
    await buyOnce(friend);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['THANKS50', 'WELCOME100']);
  });

  it('gives the inviter one reward per friend who pays, none for friends who only sign up', async () => {
    const inviter = await signedInClient('popular');
    const code = await inviteCodeOf(inviter);
    const { client: payer } = await registerWith(code);
    await registerWith(code.toLowerCase());
    await registerWith(code);
    await buyOnce(payer);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['THANKS50', 'WELCOME100']);
  });

  it('refuses an unknown or malformed code without using up the registration code', async () => {
    for (const inviteCode of ['ZZZZZZZZ', 'not a code']) {
      const { client, answer, email, code } = await registerWith(inviteCode);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({
        errorCode: 'invite_code_unknown',
        field: 'inviteCode',
        message: 'This invitation code does not exist.',
      });
      expect(await env.DB.prepare('SELECT id FROM users WHERE email = ?').bind(email).first()).toBeNull();
      const retry = await client.post<{ user: { userId: number } }>('/api/v1/user/mail/register', {
        email,
        code,
        password: 'Tickets2026',
        agreement: true,
      });
      expect(retry.status).toBe(200);
      expect(await invitationRows(retry.body.data.user.userId)).toEqual([]);
    }
  });

  it('answers in the request language', async () => {
    const { answer } = await registerWith('ZZZZZZZZ', new TestClient(), { language: 'zh-CN' });
    expect(answer.body.message).toBe('此邀请码不存在。');
  });

  it('invites a phone account created by signing in with a code, and ignores the code for an existing account', async () => {
    const inviter = await signedInClient('phoneinviter');
    const inviteCode = await inviteCodeOf(inviter);
    const phone = { countryCode: '+852', phone: '61234567' };
    const signIn = async () => {
      const client = new TestClient();
      await client.post('/api/v3/user/sendLoginCode', { channel: 'phone', ...phone });
      const code = await latestCode('+852 61234567');
      return client.post<{ user: { userId: number } }>('/api/v1/user/login', {
        loginType: 'code',
        ...phone,
        code,
        agreement: true,
        inviteCode,
      });
    };
    const first = await signIn();
    expect(first.status).toBe(200);
    const userId = first.body.data.user.userId;
    expect(await heldCodes(userId)).toEqual(['FRIEND60', 'WELCOME100']);
    await env.DB.prepare('DELETE FROM rate_limits WHERE key = ?').bind('send:target:minute:+852 61234567').run();
    const again = await signIn();
    expect(again.body.data.user.userId).toBe(userId);
    expect(await heldCodes(userId)).toEqual(['FRIEND60', 'WELCOME100']);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['WELCOME100']);
  });
});

describe('accepting a code after registering', () => {
  it('refuses your own code', async () => {
    const client = await signedInClient('self');
    const answer = await client.post('/api/v1/invitation/accept', { inviteCode: await inviteCodeOf(client) });
    expect(answer.status).toBe(409);
    expect(answer.body).toMatchObject({
      errorCode: 'invite_self',
      field: 'inviteCode',
      message: 'You cannot use your own invitation code.',
    });
    const localized = await client.call('/api/v1/invitation/accept', {
      method: 'POST',
      body: { inviteCode: await inviteCodeOf(client) },
      headers: { language: 'zh-HK' },
    });
    expect(localized.body.message).toBe('不可使用自己的邀請碼。');
    expect(await heldCodes(userIdOf(client))).toEqual(['WELCOME100']);
    expect(await invitationRows(userIdOf(client))).toEqual([]);
  });

  it('refuses unknown codes and bad bodies', async () => {
    const client = await signedInClient('unknown');
    const unknown = await client.post('/api/v1/invitation/accept', { inviteCode: 'ZZZZZZZZ' });
    expect(unknown.body).toMatchObject({ errorCode: 'invite_code_unknown', field: 'inviteCode' });
    const empty = await client.post('/api/v1/invitation/accept', {});
    expect(empty.body).toMatchObject({ errorCode: 'invalid_input', field: 'inviteCode' });
    const notJson = await client.call('/api/v1/invitation/accept', {
      method: 'POST',
      body: 'nope',
      headers: { 'content-type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
    expect((await new TestClient().post('/api/v1/invitation/accept', { inviteCode: 'ZZZZZZZZ' })).status).toBe(401);
  });

  it("accepts a friend's code once: a second invitation is refused and grants nothing", async () => {
    const [first, second, me] = await Promise.all([signedInClient('a'), signedInClient('b'), signedInClient('c')]);
    const accepted = await me.post<{ inviterNickname: string }>('/api/v1/invitation/accept', { inviteCode: await inviteCodeOf(first) });
    expect(accepted.status).toBe(200);
    expect(await heldCodes(userIdOf(me))).toEqual(['FRIEND60', 'WELCOME100']);
    const again = await me.post('/api/v1/invitation/accept', { inviteCode: await inviteCodeOf(second) });
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('invite_already_accepted');
    expect(await heldCodes(userIdOf(me))).toEqual(['FRIEND60', 'WELCOME100']);
    expect(await invitationRows(userIdOf(me))).toEqual([{ inviterId: userIdOf(first) }]);
    expect(await heldCodes(userIdOf(second))).toEqual(['WELCOME100']);
    const view = await me.call<InvitationView>('/api/v1/invitation');
    expect(view.body.data).toMatchObject({ canAccept: false, invitedBy: accepted.body.data.inviterNickname });
  });

  it('refuses the code of a friend you invited', async () => {
    const inviter = await signedInClient('cycle');
    const { client: friend } = await registerWith(await inviteCodeOf(inviter));
    const back = await inviter.post('/api/v1/invitation/accept', { inviteCode: await inviteCodeOf(friend) });
    expect(back.status).toBe(409);
    expect(back.body.errorCode).toBe('invite_cycle');
    expect(await heldCodes(userIdOf(friend))).toEqual(['FRIEND60', 'WELCOME100']);
  });

  it('grants once when concurrent acceptances race, whichever code wins', async () => {
    const inviters = await Promise.all([signedInClient('race'), signedInClient('race'), signedInClient('race')]);
    const codes = await Promise.all(inviters.map(inviteCodeOf));
    const me = await signedInClient('racer');
    const answers = await Promise.all(
      [...codes, codes[0], codes[0]].map((inviteCode) => me.post('/api/v1/invitation/accept', { inviteCode })),
    );
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    const rows = await invitationRows(userIdOf(me));
    expect(rows).toHaveLength(1);
    expect(await heldCodes(userIdOf(me))).toEqual(['FRIEND60', 'WELCOME100']);
    await buyOnce(me);
    const rewarded = await Promise.all(
      inviters.map(async (inviter) => (await heldCodes(userIdOf(inviter))).filter((code) => code === 'THANKS50').length),
    );
    expect(rewarded).toEqual(inviters.map((inviter) => (userIdOf(inviter) === rows[0].inviterId ? 1 : 0)));
  });

  it('refuses an account that has paid for an order already', async () => {
    const inviter = await signedInClient('buyerinviter');
    const buyer = await signedInClient('buyer');
    await buyOnce(buyer);
    const answer = await buyer.post('/api/v1/invitation/accept', { inviteCode: await inviteCodeOf(inviter) });
    expect(answer.status).toBe(409);
    expect(answer.body.errorCode).toBe('invite_not_new_user');
    expect(await heldCodes(userIdOf(inviter))).toEqual(['WELCOME100']);
  });
});

describe("the inviter's reward", () => {
  it("is taken back when the order that earned it is refunded, and earned again by the friend's next paid order", async () => {
    const inviter = await signedInClient('refunded');
    const { client: friend, answer } = await registerWith(await inviteCodeOf(inviter));
    const inviteeId = answer.body.data.user.userId;
    const first = await buyOnce(friend);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['THANKS50', 'WELCOME100']);
    expect(await applyOrderEvent(database(env.DB), first, 'seller_failed', Date.now())).toBe(true);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['WELCOME100']);
    expect(await rewardOf(inviteeId)).toEqual({ state: 'waiting', orderId: null });
    const second = await buyOnce(friend);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['THANKS50', 'WELCOME100']);
    expect(await rewardOf(inviteeId)).toEqual({ state: 'granted', orderId: second });
  });

  it("stays with the inviter once spent, even if the friend's order is refunded later", async () => {
    const inviter = await signedInClient('spent');
    const { client: friend, answer } = await registerWith(await inviteCodeOf(inviter));
    const orderId = await buyOnce(friend);
    await env.DB.prepare("UPDATE user_coupons SET status = 'used' WHERE user_id = ? AND invitation_id IS NOT NULL")
      .bind(userIdOf(inviter))
      .run();
    expect(await applyOrderEvent(database(env.DB), orderId, 'seller_failed', Date.now())).toBe(true);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['THANKS50', 'WELCOME100']);
    expect(await rewardOf(answer.body.data.user.userId)).toEqual({ state: 'granted', orderId });
  });

  it(`is granted at most ${INVITER_REWARDS_PER_MONTH} times a month per inviter`, async () => {
    const inviter = await signedInClient('capped');
    const code = await inviteCodeOf(inviter);
    // Friends who paid earlier this month: their rewards are on record.
    for (let i = 0; i < INVITER_REWARDS_PER_MONTH; i++) await registerWith(code);
    await env.DB.prepare("UPDATE invitations SET reward_state = 'granted', rewarded_at = ? WHERE inviter_id = ?")
      .bind(Date.now(), userIdOf(inviter))
      .run();
    const { client: friend, answer } = await registerWith(code);
    const orderId = await buyOnce(friend);
    expect(await heldCodes(userIdOf(inviter))).toEqual(['WELCOME100']);
    expect(await rewardOf(answer.body.data.user.userId)).toEqual({ state: 'capped', orderId });
    // The friend still got their own coupons.
    expect(await heldCodes(answer.body.data.user.userId)).toEqual(['FRIEND60', 'WELCOME100']);
  });
});
