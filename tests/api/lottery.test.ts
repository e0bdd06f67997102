import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import { DRAW_CODE_PATTERN, drawWinners, seedCommitment } from '../../src/lib/domain/lottery.ts';
import { drawLottery } from '../../src/lib/services/on-sale/lottery-draw.ts';
import type { HelpResult, ShareView } from '../../src/lib/services/on-sale/lottery-entries.ts';
import type { DrawRecord, LotteryDetail, LotteryView } from '../../src/lib/services/on-sale/lottery-views.ts';
import type { OrderPage } from '../../src/lib/services/orders/presenters.ts';
import { sweep } from '../../src/lib/services/platform/sweep.ts';
import { signedInClient, TestClient } from './auth-client.ts';
import { seed } from './helpers.ts';

const DAY = 86_400_000;
let nextSeed = 1;

/** A fresh lottery on a seeded lottery's tier (which has e-ticket stock for its prizes), drawing tomorrow. */
async function newLottery(options: { prizeCount?: number; maxCodes?: number; ticketsPerPrize?: number } = {}) {
  const template = await env.DB.prepare('SELECT activity_id, tier_id FROM lotteries ORDER BY id LIMIT 1').first<{
    activity_id: number;
    tier_id: number;
  }>();
  const secret = `test-seed-${nextSeed++}-${Date.now()}`;
  const row = await env.DB.prepare(
    `INSERT INTO lotteries (activity_id, tier_id, prize_count, max_codes_per_entry, draw_at, seed_commitment, seed, status, tickets_per_prize)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'open', ?) RETURNING id`,
  )
    .bind(
      template!.activity_id,
      template!.tier_id,
      options.prizeCount ?? 2,
      options.maxCodes ?? 5,
      Date.now() + DAY,
      await seedCommitment(secret),
      secret,
      options.ticketsPerPrize ?? 1,
    )
    .first<{ id: number }>();
  return { id: row!.id, tierId: template!.tier_id, secret };
}

async function passDrawTime(lotteryId: number): Promise<void> {
  await env.DB.prepare('UPDATE lotteries SET draw_at = ? WHERE id = ?')
    .bind(Date.now() - 1000, lotteryId)
    .run();
}

async function tierStock(tierId: number): Promise<number> {
  const row = await env.DB.prepare(
    `SELECT SUM(quantity_available) AS n FROM listings WHERE tier_id = ? AND status = 'active' AND instr(delivery_types, 'e_ticket') > 0`,
  )
    .bind(tierId)
    .first<{ n: number }>();
  return row!.n;
}

async function prizeOrderCount(lotteryId: number): Promise<number> {
  const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM orders WHERE idempotency_key = ?')
    .bind(`lottery-${lotteryId}`)
    .first<{ n: number }>();
  return row!.n;
}

async function join(client: TestClient, lotteryId: number) {
  return client.post<LotteryDetail>(`/api/v1/lotteries/${lotteryId}/join`, {});
}

async function help(client: TestClient, token: string) {
  return client.post<HelpResult>(`/api/v1/lotteries/share/${token}/help`, {});
}

beforeAll(async () => {
  await seed();
  // Room for every prize these tests hand out on the shared tier (the seed holds just enough for its own lottery).
  await env.DB.prepare(
    `UPDATE listings SET quantity_available = quantity_available + 50 WHERE id = (SELECT l.id FROM listings l JOIN lotteries t ON t.tier_id = l.tier_id
     WHERE t.id = 1 AND l.status = 'active' AND instr(l.delivery_types, 'e_ticket') > 0 ORDER BY l.price, l.id LIMIT 1)`,
  ).run();
});

describe('reading lotteries', () => {
  it('lists them and shows one to anyone, with the commitment but never the seed before the draw', async () => {
    const lottery = await newLottery();
    const visitor = new TestClient();
    const list = await visitor.call<LotteryView[]>('/api/v1/lotteries');
    expect(list.status).toBe(200);
    expect(list.body.data.map((item) => item.id)).toContain(lottery.id);
    const detail = await visitor.call<LotteryDetail>(`/api/v1/lotteries/${lottery.id}`);
    expect(detail.body.data).toMatchObject({
      id: lottery.id,
      phase: 'open',
      seed: null,
      winningCodes: null,
      participantCount: 0,
      codeCount: 0,
      myEntry: null,
      prizeCount: 2,
      maxCodesPerEntry: 5,
      seedCommitment: await seedCommitment(lottery.secret),
    });
    expect(detail.text).not.toContain(lottery.secret);
    expect(list.text).not.toContain(lottery.secret);
  });

  it('answers a missing lottery with lottery_not_found and a malformed id with invalid_input', async () => {
    const missing = await new TestClient().call('/api/v1/lotteries/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ errorCode: 'lottery_not_found', message: 'This lottery does not exist.' });
    const zh = await new TestClient().call('/api/v1/lotteries/999999', { headers: { language: 'zh-CN' } });
    expect(zh.body.message).toBe('此抽奖不存在。');
    expect((await new TestClient().call('/api/v1/lotteries/abc')).body.errorCode).toBe('invalid_input');
    expect((await new TestClient().post('/api/v1/lotteries/999999/join', {})).status).toBe(401);
    const signedIn = await signedInClient('lottery-missing');
    expect((await join(signedIn, 999999)).body.errorCode).toBe('lottery_not_found');
    expect((await help(signedIn, 'no-such-share-token-0000')).body.errorCode).toBe('lottery_share_not_found');
    expect((await signedIn.call('/api/v1/lotteries/share/bad!')).body.errorCode).toBe('invalid_input');
  });
});

describe('joining', () => {
  it('needs a session, gives one code and a share link, and only once', async () => {
    const lottery = await newLottery();
    expect((await new TestClient().post(`/api/v1/lotteries/${lottery.id}/join`, {})).status).toBe(401);
    const alice = await signedInClient('lottery-join');
    const joined = await join(alice, lottery.id);
    expect(joined.status).toBe(200);
    const entry = joined.body.data.myEntry!;
    expect(entry.codes).toHaveLength(1);
    expect(entry.codes[0]).toMatchObject({ fromFriend: false, isWinner: false });
    expect(entry.codes[0].code).toMatch(DRAW_CODE_PATTERN);
    expect(entry.sharePath).toBe(`/overload-ticket/${entry.shareToken}/share`);
    expect(joined.body.data.participantCount).toBe(1);

    const again = await join(alice, lottery.id);
    expect(again.status).toBe(409);
    expect(again.body.errorCode).toBe('lottery_already_joined');
    const read = await alice.call<LotteryDetail>(`/api/v1/lotteries/${lottery.id}`);
    expect(read.body.data.myEntry!.codes).toHaveLength(1);
    expect(read.body.data.codeCount).toBe(1);
  });

  it('counts one entry however many joins of one user race', async () => {
    const lottery = await newLottery();
    const racer = await signedInClient('lottery-race');
    const answers = await Promise.all(Array.from({ length: 5 }, () => join(racer, lottery.id)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.errorCode === 'lottery_already_joined')).toHaveLength(4);
    const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM lottery_codes WHERE lottery_id = ?')
      .bind(lottery.id)
      .first<{ n: number }>();
    expect(row!.n).toBe(1);
  });
});

describe("friends' help", () => {
  it('gives the sharer one more code per friend, once per friend per lottery, never for your own entry', async () => {
    const lottery = await newLottery();
    const alice = await signedInClient('lottery-sharer');
    const carol = await signedInClient('lottery-sharer2');
    const bob = await signedInClient('lottery-friend');
    const aliceToken = (await join(alice, lottery.id)).body.data.myEntry!.shareToken;
    const carolToken = (await join(carol, lottery.id)).body.data.myEntry!.shareToken;

    const before = await bob.call<ShareView>(`/api/v1/lotteries/share/${aliceToken}`);
    expect(before.body.data).toMatchObject({
      sharerCodeCount: 1,
      viewer: { isSharer: false, helpedInLottery: false, helpedThisEntry: false },
    });
    expect(before.body.data.sharerName).toMatch(/^.\*\*\*$/);

    const helped = await help(bob, aliceToken);
    expect(helped.status).toBe(200);
    expect(helped.body.data).toMatchObject({ sharerCodeCount: 2, maxCodesPerEntry: 5 });
    const codes = (await alice.call<LotteryDetail>(`/api/v1/lotteries/${lottery.id}`)).body.data.myEntry!.codes;
    expect(codes.map((code) => code.fromFriend)).toEqual([false, true]);

    const twice = await help(bob, aliceToken);
    expect(twice.status).toBe(409);
    expect(twice.body.errorCode).toBe('lottery_already_helped');
    const someoneElse = await help(bob, carolToken);
    expect(someoneElse.body.errorCode).toBe('lottery_already_helped');
    const own = await help(alice, aliceToken);
    expect(own.status).toBe(409);
    expect(own.body.errorCode).toBe('lottery_own_entry');
    expect((await new TestClient().post(`/api/v1/lotteries/share/${aliceToken}/help`, {})).status).toBe(401);

    const after = await bob.call<ShareView>(`/api/v1/lotteries/share/${aliceToken}`);
    expect(after.body.data).toMatchObject({ sharerCodeCount: 2, viewer: { helpedInLottery: true, helpedThisEntry: true } });
    expect((await alice.call<ShareView>(`/api/v1/lotteries/share/${aliceToken}`)).body.data.viewer?.isSharer).toBe(true);
    expect((await alice.call<ShareView>(`/api/v1/lotteries/share/${carolToken}`)).body.data.sharerCodeCount).toBe(1);
  });

  it('stops at the cap of codes per entry', async () => {
    const lottery = await newLottery({ maxCodes: 2 });
    const alice = await signedInClient('lottery-cap');
    const token = (await join(alice, lottery.id)).body.data.myEntry!.shareToken;
    expect((await help(await signedInClient('lottery-cap-friend'), token)).status).toBe(200);
    const late = await help(await signedInClient('lottery-cap-late'), token);
    expect(late.status).toBe(409);
    expect(late.body.errorCode).toBe('lottery_codes_full');
  });

  it('grants one code however many helps of one friend, or friends past the cap, race', async () => {
    const lottery = await newLottery({ maxCodes: 3 });
    const alice = await signedInClient('lottery-help-race');
    const token = (await join(alice, lottery.id)).body.data.myEntry!.shareToken;
    const bob = await signedInClient('lottery-help-racer');
    const same = await Promise.all(Array.from({ length: 5 }, () => help(bob, token)));
    expect(same.filter((answer) => answer.status === 200)).toHaveLength(1);
    const friends = await Promise.all(Array.from({ length: 4 }, (_, i) => signedInClient(`lottery-help-crowd${i}`)));
    const crowd = await Promise.all(friends.map((friend) => help(friend, token)));
    expect(crowd.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(crowd.filter((answer) => answer.body.errorCode === 'lottery_codes_full')).toHaveLength(3);
    expect((await alice.call<LotteryDetail>(`/api/v1/lotteries/${lottery.id}`)).body.data.myEntry!.codes).toHaveLength(3);
  });
});

describe('the draw', () => {
  it('keeps the codes secret until the draw, then refuses joining and help and publishes what re-runs it', async () => {
    const lottery = await newLottery({ prizeCount: 2, ticketsPerPrize: 2 });
    const players = await Promise.all(Array.from({ length: 4 }, (_, i) => signedInClient(`lottery-draw${i}`)));
    const tokens: string[] = [];
    for (const player of players) tokens.push((await join(player, lottery.id)).body.data.myEntry!.shareToken);
    await help(players[1], tokens[0]);
    await help(players[2], tokens[0]);
    const early = await players[0].call(`/api/v1/lotteries/${lottery.id}/draw`);
    expect(early.status).toBe(409);
    expect(early.body.errorCode).toBe('lottery_not_drawn');

    const stockBefore = await tierStock(lottery.tierId);
    await passDrawTime(lottery.id);
    const lateJoin = await join(await signedInClient('lottery-late'), lottery.id);
    expect(lateJoin.status).toBe(409);
    expect(lateJoin.body.errorCode).toBe('lottery_closed');

    // The read above drew it (lazily); the result is public.
    const drawn = await new TestClient().call<LotteryDetail>(`/api/v1/lotteries/${lottery.id}`);
    expect(drawn.body.data).toMatchObject({ phase: 'drawn', seed: lottery.secret, participantCount: 4, codeCount: 6 });
    expect(drawn.body.data.winningCodes).toHaveLength(2);
    const lateHelp = await help(players[3], tokens[1]);
    expect(lateHelp.status).toBe(409);
    expect(lateHelp.body.errorCode).toBe('lottery_closed');

    // What a participant does: check the commitment, re-run the draw on the published codes.
    const record = await new TestClient().call<DrawRecord>(`/api/v1/lotteries/${lottery.id}/draw`);
    expect(record.status).toBe(200);
    const { seed: revealed, seedCommitment: commitment, codes, prizeCount, winningCodes } = record.body.data;
    expect(await seedCommitment(revealed)).toBe(commitment);
    expect(codes).toHaveLength(6);
    const rerun = await drawWinners(revealed, codes, prizeCount);
    expect(rerun.map((winner) => winner.code).sort()).toEqual([...winningCodes].sort());
    expect(drawn.body.data.winningCodes).toEqual([...winningCodes].sort());

    // Winners have a free order of the tier, waiting for its tickets; the stock fell by exactly their tickets.
    expect(await prizeOrderCount(lottery.id)).toBe(2);
    expect(await tierStock(lottery.tierId)).toBe(stockBefore - 4);
    let winnersSeen = 0;
    for (const player of players) {
      const mine = (await player.call<LotteryDetail>(`/api/v1/lotteries/${lottery.id}`)).body.data.myEntry!;
      if (!mine.won) {
        expect(mine.prizeOrderId).toBeNull();
        continue;
      }
      winnersSeen += 1;
      expect(mine.codes.some((code) => code.isWinner && winningCodes.includes(code.code))).toBe(true);
      const orders = await player.call<OrderPage>('/api/v1/orders?tab=pending_ticketing');
      const prize = orders.body.data.items.find((item) => item.id === mine.prizeOrderId)!;
      expect(prize).toMatchObject({ status: 'pending_ticketing', quantity: 2 });
      expect(prize.total.amount).toBe(0);
    }
    expect(winnersSeen).toBe(2);
  });

  it('draws exactly once when sweeps and readers overlap', async () => {
    const lottery = await newLottery({ prizeCount: 3 });
    const players = await Promise.all(Array.from({ length: 5 }, (_, i) => signedInClient(`lottery-once${i}`)));
    for (const player of players) await join(player, lottery.id);
    const stockBefore = await tierStock(lottery.tierId);
    await passDrawTime(lottery.id);
    const db = database(env.DB);
    const now = Date.now();
    const [first, second, third, ...reads] = await Promise.all([
      drawLottery(db, lottery.id, now),
      sweep(db, env, env.MESSAGES, now),
      sweep(db, env, env.MESSAGES, now),
      ...players.map((player) => player.call<LotteryDetail>(`/api/v1/lotteries/${lottery.id}`)),
    ]);
    const recorded = [first, second.drawnLotteries > 0, third.drawnLotteries > 0].filter(Boolean).length;
    expect(recorded).toBeLessThanOrEqual(1);
    const state = await env.DB.prepare('SELECT status, drawn_at FROM lotteries WHERE id = ?')
      .bind(lottery.id)
      .first<{ status: string; drawn_at: number }>();
    expect(state!.status).toBe('drawn');
    const winners = await env.DB.prepare('SELECT COUNT(*) AS n FROM lottery_codes WHERE lottery_id = ? AND is_winner = 1')
      .bind(lottery.id)
      .first<{ n: number }>();
    expect(winners!.n).toBe(3);
    expect(await prizeOrderCount(lottery.id)).toBe(3);
    expect(await tierStock(lottery.tierId)).toBe(stockBefore - 3);
    for (const read of reads) expect(read.status).toBe(200);
    // Every player hears the result once: three that they won, two that they did not.
    const { results: told } = await env.DB.prepare(
      `SELECT json_extract(m.payload, '$.won') AS won FROM messages m JOIN lottery_entries e ON m.dedupe_key = 'lottery_result:' || e.id
       WHERE e.lottery_id = ? AND m.kind = 'lottery_result'`,
    )
      .bind(lottery.id)
      .all<{ won: number }>();
    expect(told.map((message) => message.won).sort()).toEqual([0, 0, 1, 1, 1]);

    // Later sweeps change nothing.
    expect((await sweep(db, env, env.MESSAGES, Date.now())).drawnLotteries).toBe(0);
    expect(await drawLottery(db, lottery.id, Date.now())).toBe(false);
    expect(await prizeOrderCount(lottery.id)).toBe(3);
    const after = await env.DB.prepare('SELECT drawn_at FROM lotteries WHERE id = ?').bind(lottery.id).first<{ drawn_at: number }>();
    expect(after!.drawn_at).toBe(state!.drawn_at);
  });

  it('draws a lottery nobody joined without winners, and leaves one before its time alone', async () => {
    const empty = await newLottery();
    const future = await newLottery();
    await passDrawTime(empty.id);
    await sweep(database(env.DB), env, env.MESSAGES, Date.now());
    const drawn = await new TestClient().call<LotteryDetail>(`/api/v1/lotteries/${empty.id}`);
    expect(drawn.body.data).toMatchObject({ phase: 'drawn', winningCodes: [], seed: empty.secret });
    expect((await new TestClient().call<LotteryDetail>(`/api/v1/lotteries/${future.id}`)).body.data).toMatchObject({
      phase: 'open',
      seed: null,
    });
  });
});

describe('the share image', () => {
  it('is an SVG of the lottery with a QR code of the share link', async () => {
    const lottery = await newLottery();
    const alice = await signedInClient('lottery-image');
    const token = (await join(alice, lottery.id)).body.data.myEntry!.shareToken;
    const image = await new TestClient().call(`/api/v1/lotteries/share/${token}/image.svg`, { headers: { language: 'zh-HK' } });
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toContain('image/svg+xml');
    expect(image.text).toContain('<svg');
    expect(image.text).toContain(`http://localhost/zh-HK/overload-ticket/${token}/share`);
    expect(image.text).toContain('免費門票抽獎');
    expect((await new TestClient().call('/api/v1/lotteries/share/no-such-share-token-0000/image.svg')).status).toBe(404);
  });
});
