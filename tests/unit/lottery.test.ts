import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  DRAW_CODE_PATTERN,
  drawCodeFrom,
  drawIsDue,
  drawWinners,
  helpRefusal,
  joinRefusal,
  lotteryPhase,
  rankCodes,
  seedCommitment,
  type DrawCode,
  type HelpCheck,
} from '../../src/lib/domain/lottery.ts';

const codesOf = (count: number, perEntry = 1): DrawCode[] =>
  Array.from({ length: count }, (_, i) => ({ code: `C${String(i).padStart(7, '0')}`, entryId: Math.floor(i / perEntry) + 1 }));

/** Pearson's chi-square statistic of observed counts against equal expected counts. */
function chiSquare(observed: number[]): number {
  const expected = observed.reduce((sum, n) => sum + n, 0) / observed.length;
  return observed.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
}

describe('the commitment', () => {
  it('is the SHA-256 of the seed, as the seed and any participant compute it', async () => {
    expect(await seedCommitment('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const seed of ['x', 'c'.repeat(64), '種子🎫'.repeat(30)]) {
      expect(await seedCommitment(seed)).toBe(createHash('sha256').update(seed, 'utf8').digest('hex'));
    }
  });

  it('binds the seed: a seed one character off has another commitment', async () => {
    expect(await seedCommitment('517ff9ac')).not.toBe(await seedCommitment('517ff9ad'));
    expect(await seedCommitment('517ff9ac')).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('draw codes', () => {
  it('are 8 unambiguous base32 characters', () => {
    const code = drawCodeFrom(Uint8Array.from([0, 31, 32, 255, 8, 18, 21, 27]));
    expect(code).toBe('0Z0Z8JNV');
    expect(code).toMatch(DRAW_CODE_PATTERN);
    expect(drawCodeFrom(crypto.getRandomValues(new Uint8Array(8)))).not.toMatch(/[ILOU]/);
    expect(() => drawCodeFrom(new Uint8Array(4))).toThrow(RangeError);
  });
});

describe('the draw', () => {
  it('ranks by HMAC-SHA256(seed, code), as anyone can recompute it', async () => {
    const codes = codesOf(20).map((c) => c.code);
    const ranked = await rankCodes('published-seed', codes);
    const expected = codes
      .map((code) => ({ code, rank: createHmac('sha256', 'published-seed').update(code).digest('hex') }))
      .sort((a, b) => a.rank.localeCompare(b.rank));
    expect(ranked).toEqual(expected);
  });

  it('is deterministic: the same seed and codes give the same winners, whatever their order', async () => {
    const codes = codesOf(50, 2);
    const first = await drawWinners('seed-1', codes, 5);
    expect(await drawWinners('seed-1', [...codes].reverse(), 5)).toEqual(first);
    expect(await drawWinners('seed-2', codes, 5)).not.toEqual(first);
  });

  it('gives at most one prize per entry and never more prizes than entries', async () => {
    const codes = codesOf(30, 10);
    const winners = await drawWinners('seed', codes, 5);
    expect(winners).toHaveLength(3);
    expect(new Set(winners.map((w) => w.entryId)).size).toBe(3);
    expect(await drawWinners('seed', [], 3)).toEqual([]);
    const single = await drawWinners('seed', codesOf(10), 4);
    expect(single).toHaveLength(4);
    expect(single.map((w) => w.code)).toEqual(
      (
        await rankCodes(
          'seed',
          codesOf(10).map((c) => c.code),
        )
      )
        .slice(0, 4)
        .map((r) => r.code),
    );
  });

  it('picks every code equally often over many seeds (chi-square, 3000 draws of 12 codes)', async () => {
    const codes = codesOf(12);
    const firsts = new Array<number>(12).fill(0);
    const wins = new Array<number>(12).fill(0);
    for (let i = 0; i < 3000; i++) {
      const winners = await drawWinners(`seed-${i}`, codes, 3);
      firsts[codes.findIndex((c) => c.code === winners[0].code)] += 1;
      for (const winner of winners) wins[codes.findIndex((c) => c.code === winner.code)] += 1;
    }
    // 11 degrees of freedom: 31.26 is the 0.001 critical value, so a fair draw fails this 1 time in 1000.
    expect(chiSquare(firsts)).toBeLessThan(31.26);
    expect(chiSquare(wins)).toBeLessThan(31.26);
    // Each of 12 codes wins one of 3 prizes with probability 1/4.
    for (const n of wins) expect(n / 3000).toBeGreaterThan(0.2);
  });

  it('gives an entry with more codes proportionally more chances to come first', async () => {
    // Entry 1 holds 4 codes, entries 2..9 one each: entry 1 should come first 4/12 of the time.
    const codes: DrawCode[] = [
      ...codesOf(4).map((c) => ({ ...c, entryId: 1 })),
      ...codesOf(12)
        .slice(4)
        .map((c, i) => ({ ...c, entryId: i + 2 })),
    ];
    let entryOneFirst = 0;
    const draws = 3000;
    for (let i = 0; i < draws; i++) if ((await drawWinners(`weighted-${i}`, codes, 1))[0].entryId === 1) entryOneFirst += 1;
    const share = entryOneFirst / draws;
    expect(share).toBeGreaterThan(1 / 3 - 0.03);
    expect(share).toBeLessThan(1 / 3 + 0.03);
  });
});

describe('who may join and help', () => {
  const drawAt = 1_000_000;
  it('knows the phase from the status and the clock', () => {
    expect(lotteryPhase('open', drawAt, drawAt - 1)).toBe('open');
    expect(lotteryPhase('open', drawAt, drawAt)).toBe('closed');
    expect(lotteryPhase('drawing', drawAt, drawAt - 1)).toBe('closed');
    expect(lotteryPhase('drawn', drawAt, drawAt + 1)).toBe('drawn');
    expect(drawIsDue('open', drawAt, drawAt)).toBe(true);
    expect(drawIsDue('open', drawAt, drawAt - 1)).toBe(false);
    expect(drawIsDue('drawn', drawAt, drawAt + 1)).toBe(false);
  });

  it('lets a user join once, before the draw', () => {
    expect(joinRefusal('open', false)).toBeNull();
    expect(joinRefusal('open', true)).toBe('lottery_already_joined');
    expect(joinRefusal('closed', false)).toBe('lottery_closed');
    expect(joinRefusal('drawn', true)).toBe('lottery_closed');
  });

  it('lets a friend help once per lottery, not their own entry, up to the cap, before the draw', () => {
    const ok: HelpCheck = { phase: 'open', helperId: 2, sharerId: 1, helpedInLottery: false, sharerCodeCount: 1, maxCodesPerEntry: 5 };
    expect(helpRefusal(ok)).toBeNull();
    expect(helpRefusal({ ...ok, phase: 'closed' })).toBe('lottery_closed');
    expect(helpRefusal({ ...ok, phase: 'drawn' })).toBe('lottery_closed');
    expect(helpRefusal({ ...ok, helperId: 1 })).toBe('lottery_own_entry');
    expect(helpRefusal({ ...ok, helpedInLottery: true })).toBe('lottery_already_helped');
    expect(helpRefusal({ ...ok, sharerCodeCount: 5 })).toBe('lottery_codes_full');
    expect(helpRefusal({ ...ok, sharerCodeCount: 4 })).toBeNull();
  });
});
