import { describe, expect, it } from 'vitest';
import { WAITING_ROOM_POLL_JITTER, WAITING_ROOM_POLL_MS } from '../../src/lib/config/on-sale.ts';
import { mulberry32 } from '../../src/lib/domain/random.ts';
import {
  advanceAdmissions,
  drawnAskAfterMs,
  earlyAskAfterMs,
  entryMoment,
  estimatedWaitMs,
  formatWait,
  lineRate,
  lotteryOrder,
  pacedAdmissionRate,
  parsePass,
  passRefusal,
  placeInLine,
  pollAfterMs,
  rateForTicketsLeft,
  spreadPollMs,
  stateOf,
} from '../../src/lib/domain/waiting-room.ts';
import type { ServiceEnv } from '../../src/lib/services/platform/env.ts';
import { issuePass, judgePass } from '../../src/lib/services/on-sale/waiting-room-pass.ts';

const MINUTE = 60_000;
const OPENS = Date.UTC(2026, 11, 1, 2, 0);

/** Pearson's chi-square statistic of observed counts against equal expected counts. */
function chiSquare(observed: number[]): number {
  const expected = observed.reduce((sum, n) => sum + n, 0) / observed.length;
  return observed.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
}

describe('the early group’s lottery', () => {
  it('orders every entrant exactly once, and the same draw gives the same order', () => {
    const entrants = Array.from({ length: 50 }, (_, i) => i + 1);
    const order = lotteryOrder(entrants, mulberry32(7));
    expect([...order].sort((a, b) => a - b)).toEqual(entrants);
    expect(order).not.toEqual(entrants);
    expect(lotteryOrder(entrants, mulberry32(7))).toEqual(order);
    expect(entrants[0]).toBe(1);
  });

  it('gives the first arrival every place equally often (no advantage in arriving first)', () => {
    const random = mulberry32(2026);
    const firstArrivalPlaces = Array.from({ length: 5 }, () => 0);
    for (let draw = 0; draw < 10_000; draw++) firstArrivalPlaces[lotteryOrder(['a', 'b', 'c', 'd', 'e'], random).indexOf('a')] += 1;
    // 4 degrees of freedom: 18.47 is the 0.1% critical value.
    expect(chiSquare(firstArrivalPlaces)).toBeLessThan(18.47);
  });
});

describe('the admission clock', () => {
  const front = { opensAt: OPENS, admissionsPerMinute: 60, lined: 100 };

  it('lets nobody through before the opening', () => {
    expect(advanceAdmissions({ admittedThrough: 0, creditSince: OPENS - MINUTE }, front, OPENS - 1)).toEqual({
      admittedThrough: 0,
      creditSince: OPENS - MINUTE,
    });
  });

  it('lets one buyer through per 60,000 / rate ms from the opening, keeping the part of a step already waited', () => {
    const after = advanceAdmissions({ admittedThrough: 0, creditSince: OPENS - MINUTE }, front, OPENS + 10_500);
    expect(after).toEqual({ admittedThrough: 10, creditSince: OPENS + 10_000 });
    expect(advanceAdmissions(after, front, OPENS + 11_000)).toEqual({ admittedThrough: 11, creditSince: OPENS + 11_000 });
  });

  it('stops at the end of the line and saves up no time while nobody waits', () => {
    const emptied = advanceAdmissions({ admittedThrough: 95, creditSince: OPENS }, front, OPENS + 10 * MINUTE);
    expect(emptied).toEqual({ admittedThrough: 100, creditSince: OPENS + 10 * MINUTE });
    // Twenty arrive a minute later (the room moves the line on before it grows): they go through at the rate, not all at once.
    const atArrival = advanceAdmissions(emptied, front, OPENS + 11 * MINUTE);
    expect(atArrival).toEqual({ admittedThrough: 100, creditSince: OPENS + 11 * MINUTE });
    expect(advanceAdmissions(atArrival, { ...front, lined: 120 }, OPENS + 11 * MINUTE + 5000).admittedThrough).toBe(105);
  });

  it('lets nobody through at a rate of zero, and does not save the paused time', () => {
    const paused = advanceAdmissions({ admittedThrough: 3, creditSince: OPENS }, { ...front, admissionsPerMinute: 0 }, OPENS + MINUTE);
    expect(paused).toEqual({ admittedThrough: 3, creditSince: OPENS + MINUTE });
  });
});

describe('an on-sale with nothing left', () => {
  it('lets nobody through while every ticket is taken, at the paced rate once some are back, and saves no time up', () => {
    expect(rateForTicketsLeft(600, true)).toBe(0);
    expect(rateForTicketsLeft(150, false)).toBe(150);
    const front = { opensAt: OPENS, admissionsPerMinute: rateForTicketsLeft(60, true), lined: 100 };
    const held = advanceAdmissions({ admittedThrough: 40, creditSince: OPENS }, front, OPENS + 10 * MINUTE);
    expect(held).toEqual({ admittedThrough: 40, creditSince: OPENS + 10 * MINUTE });
    const back = { ...front, admissionsPerMinute: rateForTicketsLeft(60, false) };
    expect(advanceAdmissions(held, back, OPENS + 10 * MINUTE + 3000).admittedThrough).toBe(43);
  });
});

describe('the rate paced by checkout', () => {
  const rules = { holdTargetMs: 250, calmFactor: 2, batchHolds: 25, freshMs: 5000, leastShare: 0.2 };
  const at = OPENS + MINUTE;
  // A calm hold of a second leaves the rules' own target in charge.
  const report = (holdMs: number, backlog: number, reportedAt = at, calmHoldMs = 1000) => ({ holdMs, backlog, reportedAt, calmHoldMs });

  it('keeps the configured rate while checkout keeps up, or before it reported anything', () => {
    expect(pacedAdmissionRate(600, null, at, rules)).toBe(600);
    expect(pacedAdmissionRate(600, report(250, 25), at, rules)).toBe(600);
    expect(pacedAdmissionRate(600, report(12, 0), at, rules)).toBe(600);
  });

  it('slows in proportion to the slower batch or the longer backlog, whichever is worse', () => {
    expect(pacedAdmissionRate(600, report(500, 0), at, rules)).toBe(300);
    expect(pacedAdmissionRate(600, report(100, 75), at, rules)).toBe(200);
    expect(pacedAdmissionRate(600, report(750, 50), at, rules)).toBe(200);
  });

  it('holds the pace to a few times the calm hold when that is sooner than the target', () => {
    // Holds of 40 ms when calm: 80 ms keeps up, 200 ms is two and a half times behind.
    expect(pacedAdmissionRate(600, report(80, 0, at, 40), at, rules)).toBe(600);
    expect(pacedAdmissionRate(600, report(200, 0, at, 40), at, rules)).toBe(240);
    // A calm hold of 200 ms (a far database): the target of 250 ms stands.
    expect(pacedAdmissionRate(600, report(250, 0, at, 200), at, rules)).toBe(600);
    expect(pacedAdmissionRate(600, report(500, 0, at, 200), at, rules)).toBe(300);
  });

  it('never stops the line: at least its least share of the rate', () => {
    expect(pacedAdmissionRate(600, report(60_000, 1000), at, rules)).toBe(120);
    expect(pacedAdmissionRate(3, report(60_000, 0), at, rules)).toBe(1);
  });

  it('recovers: a fresh fast batch, or a report older than the freshness, gives the configured rate back', () => {
    const slow = report(1000, 0, at);
    expect(pacedAdmissionRate(600, slow, at + 5000, rules)).toBe(150);
    expect(pacedAdmissionRate(600, slow, at + 5001, rules)).toBe(600);
    expect(pacedAdmissionRate(600, report(40, 0, at + 1000), at + 1000, rules)).toBe(600);
  });

  it('leaves a stopped room stopped', () => {
    expect(pacedAdmissionRate(0, report(1000, 100), at, rules)).toBe(0);
  });
});

describe('checkout’s door', () => {
  const at = OPENS + 10 * MINUTE;
  const most = 60_000;

  it('lets buyers first seen through in one at a time, each a buyer’s share of the rate after the last', () => {
    let door = 0;
    const moments = [];
    // Four buyers seen through in the same moment (the early group's reloads, a crowd's polls).
    for (let i = 0; i < 4; i++) {
      const entry = entryMoment(door, at, 600, most);
      moments.push(entry.enterAt - at);
      door = entry.nextEntryAt;
    }
    expect(moments).toEqual([0, 100, 200, 300]);
    // One who comes later than the door's next moment enters at once; a slowed rate spaces more.
    expect(entryMoment(door, at + 1000, 600, most)).toEqual({ enterAt: at + 1000, nextEntryAt: at + 1100 });
    expect(entryMoment(at, at, 7, most)).toEqual({ enterAt: at, nextEntryAt: at + Math.ceil(MINUTE / 7) });
  });

  it('does not meter a stopped line (only the dev door lets buyers through), and forgets a queue longer than the most', () => {
    expect(entryMoment(at + 5000, at, 0, most)).toEqual({ enterAt: at, nextEntryAt: at + 5000 });
    expect(entryMoment(at + most + 1, at, 600, most)).toEqual({ enterAt: at, nextEntryAt: at + 100 });
    expect(entryMoment(at + most, at, 600, most).enterAt).toBe(at + most);
  });

  it('stops the line while the door’s queue is longer than the backlog, at the room’s rate otherwise (a queue past the most is a clock moved back)', () => {
    const door = { backlogMs: 5000, mostMs: most };
    expect(lineRate(600, at + 5001, at, door)).toBe(0);
    expect(lineRate(600, at + 5000, at, door)).toBe(600);
    expect(lineRate(150, 0, at, door)).toBe(150);
    expect(lineRate(600, at + most + 1, at, door)).toBe(600);
  });
});

describe('a place and its estimate', () => {
  const front = { opensAt: OPENS, admissionsPerMinute: 600, admittedThrough: 40 };

  it('counts the place from the front of the line, and tells early, waiting and admitted apart', () => {
    expect(placeInLine(45, 40)).toBe(5);
    expect(stateOf(null, front)).toBe('early');
    expect(stateOf(41, front)).toBe('waiting');
    expect(stateOf(40, front)).toBe('admitted');
  });

  it('estimates from the rate, counting the time until the opening, and has no estimate when the line is paused', () => {
    expect(estimatedWaitMs(5, front, OPENS + MINUTE)).toBe(500);
    expect(estimatedWaitMs(600, front, OPENS - MINUTE)).toBe(2 * MINUTE);
    expect(estimatedWaitMs(5, { ...front, admissionsPerMinute: 0 }, OPENS)).toBeNull();
  });

  it('asks again after a third of the wait, between the least and the most', () => {
    expect(pollAfterMs(1000, 1)).toBe(WAITING_ROOM_POLL_MS.least);
    expect(pollAfterMs(30_000, 1)).toBe(10_000);
    expect(pollAfterMs(60 * MINUTE, 1)).toBe(WAITING_ROOM_POLL_MS.most);
  });

  it('asks again by the place while the line is paused: often at the front, at the most further back', () => {
    expect(pollAfterMs(null, 1)).toBe(WAITING_ROOM_POLL_MS.least);
    expect(pollAfterMs(null, 3)).toBe(3 * WAITING_ROOM_POLL_MS.least);
    expect(pollAfterMs(null, 10_000)).toBe(WAITING_ROOM_POLL_MS.most);
    expect(pollAfterMs(null, null)).toBe(WAITING_ROOM_POLL_MS.most);
  });

  it('spreads an interval later by up to the jitter, never sooner, so pages told together ask apart', () => {
    expect(spreadPollMs(2000, () => 0)).toBe(2000);
    expect(spreadPollMs(2000, () => 0.5)).toBe(Math.round(2000 * (1 + WAITING_ROOM_POLL_JITTER / 2)));
    expect(spreadPollMs(2000, () => 0.999_999)).toBeLessThanOrEqual(2000 * (1 + WAITING_ROOM_POLL_JITTER));
    // A crowd told the same 2 s at the same moment: its next polls fall over the whole jitter, in every tenth of it.
    const random = mulberry32(20);
    const tenths = new Set(
      Array.from({ length: 300 }, () => Math.floor(((spreadPollMs(2000, random) - 2000) / (2000 * WAITING_ROOM_POLL_JITTER)) * 10)),
    );
    expect([...tenths].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('has an early page wait for the opening when it is near, and ask at the most (spread) while it is far', () => {
    expect(earlyAskAfterMs(4000, () => 0.5)).toBe(4000);
    expect(earlyAskAfterMs(0, () => 0.5)).toBe(0);
    expect(earlyAskAfterMs(WAITING_ROOM_POLL_MS.most, () => 0.5)).toBe(WAITING_ROOM_POLL_MS.most);
    expect(earlyAskAfterMs(60 * MINUTE, () => 0)).toBe(WAITING_ROOM_POLL_MS.most);
    expect(earlyAskAfterMs(60 * MINUTE, () => 0.5)).toBe(spreadPollMs(WAITING_ROOM_POLL_MS.most, () => 0.5));
  });

  it('has the early group ask for its drawn positions spread over the draw spread after the opening', () => {
    expect(drawnAskAfterMs(3000, 20_000, () => 0)).toBe(3000);
    expect(drawnAskAfterMs(3000, 20_000, () => 0.5)).toBe(13_000);
    expect(drawnAskAfterMs(-500, 20_000, () => 0.25)).toBe(5000);
    // 150 pages that waited for the same opening: no second of the spread gets more than a few.
    const random = mulberry32(7);
    const perSecond = new Map<number, number>();
    for (let i = 0; i < 150; i++) {
      const second = Math.floor(drawnAskAfterMs(0, 20_000, random) / 1000);
      perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    }
    expect(perSecond.size).toBe(20);
    expect(Math.max(...perSecond.values())).toBeLessThan(20);
  });

  it('shows a wait in whole minutes of the language, rounded up', () => {
    expect(formatWait(61_000, 'en')).toBe('2 minutes');
    expect(formatWait(1000, 'en')).toBe('1 minute');
    expect(formatWait(3 * MINUTE, 'zh-HK')).toBe('3 分鐘');
  });
});

describe('the pass to checkout', () => {
  const env = { APP_ENV: 'local' } as ServiceEnv;
  const claims = { userId: 17, sessionId: 302, expiresAt: OPENS + 10 * MINUTE };
  const wanted = { userId: 17, sessionId: 302, now: OPENS };

  it('is valid for its own account and session until it expires', async () => {
    const pass = await issuePass(env, claims);
    expect(parsePass(pass)?.claims).toEqual(claims);
    expect(await judgePass(env, pass, wanted)).toBe('valid');
    expect(await judgePass(env, pass, { ...wanted, now: claims.expiresAt - 1 })).toBe('valid');
    expect(await judgePass(env, pass, { ...wanted, now: claims.expiresAt })).toBe('expired');
  });

  it('is refused to another account and for another session', async () => {
    const pass = await issuePass(env, claims);
    expect(await judgePass(env, pass, { ...wanted, userId: 18 })).toBe('other_account');
    expect(await judgePass(env, pass, { ...wanted, sessionId: 303 })).toBe('other_session');
  });

  it('is worthless altered, forged under another secret, or malformed', async () => {
    const pass = await issuePass(env, claims);
    const lengthened = pass.replace(`.${claims.expiresAt}.`, `.${claims.expiresAt + 3_600_000}.`);
    expect(await judgePass(env, lengthened, wanted)).toBe('invalid');
    const otherAccount = pass.replace('302.17.', '302.18.');
    expect(await judgePass(env, otherAccount, { ...wanted, userId: 18 })).toBe('invalid');
    const forged = await issuePass({ APP_ENV: 'production', APP_SECRET: 'someone-else' } as ServiceEnv, claims);
    expect(await judgePass(env, forged, wanted)).toBe('invalid');
    for (const text of ['', 'pass', '302.17.1', `${pass}x`]) expect(await judgePass(env, text, wanted)).toBe('invalid');
  });

  it('says why its claims do not fit, in order: account, session, time', () => {
    expect(passRefusal(claims, wanted)).toBeNull();
    expect(passRefusal(claims, { userId: 1, sessionId: 1, now: claims.expiresAt })).toBe('other_account');
  });

  it('of a tier’s own on-sale opens that tier only: not another tier, nor the session’s checkout, nor the other way round', async () => {
    const tierClaims = { ...claims, tierId: 55 };
    const tierPass = await issuePass(env, tierClaims);
    expect(tierPass.startsWith('302-55.17.')).toBe(true);
    expect(parsePass(tierPass)?.claims).toEqual(tierClaims);
    expect(await judgePass(env, tierPass, { ...wanted, tierId: 55 })).toBe('valid');
    expect(await judgePass(env, tierPass, { ...wanted, tierId: 56 })).toBe('other_tier');
    expect(await judgePass(env, tierPass, wanted)).toBe('other_tier');
    expect(await judgePass(env, tierPass, { ...wanted, sessionId: 303, tierId: 55 })).toBe('other_session');
    expect(await judgePass(env, tierPass, { ...wanted, userId: 18, tierId: 55 })).toBe('other_account');
    expect(await judgePass(env, await issuePass(env, claims), { ...wanted, tierId: 55 })).toBe('other_tier');
    // The tier is signed: a session's pass with a tier put in is no pass.
    const sessionPass = await issuePass(env, claims);
    expect(await judgePass(env, sessionPass.replace('302.', '302-55.'), { ...wanted, tierId: 55 })).toBe('invalid');
    expect(passRefusal(tierClaims, { ...wanted, tierId: 55, now: tierClaims.expiresAt })).toBe('expired');
  });
});
