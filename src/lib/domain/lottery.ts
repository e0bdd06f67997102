/**
 * The free-ticket lottery's rules: draw codes, who may join or help, and the draw itself.
 *
 * The draw is commit-reveal. Before it, only SHA-256(seed) is published; after it, the seed and the
 * full list of codes are. Anyone can then re-run `drawWinners`:
 *   1. rank every code by HMAC-SHA256(key = seed as UTF-8, message = code as UTF-8), lowest hex first
 *      (ties, which need a hash collision, fall back to the code);
 *   2. walk the ranking and take each code whose entry has not won yet, until `prizeCount` winners.
 * A keyed hash of a secret seed puts the codes in a uniformly random order that nobody could steer
 * once the commitment was out, so every code has the same chance to come first; a participant with
 * more codes (from friends' help) has proportionally more chances, and wins at most one prize.
 */

/** Crockford base32 without I, L, O, U: codes are read aloud and typed without ambiguity. */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const DRAW_CODE_LENGTH = 8;
export const DRAW_CODE_PATTERN = /^[0-9A-HJKMNP-TV-Z]{8}$/;

/** A draw code from random bytes (at least DRAW_CODE_LENGTH of them): 8 characters, 40 bits. */
export function drawCodeFrom(bytes: Uint8Array): string {
  if (bytes.length < DRAW_CODE_LENGTH) throw new RangeError('drawCodeFrom needs 8 random bytes');
  return [...bytes.slice(0, DRAW_CODE_LENGTH)].map((byte) => CODE_ALPHABET[byte & 31]).join('');
}

function hex(buffer: ArrayBuffer): string {
  return [...new Uint8Array(buffer)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The published commitment of a seed: SHA-256 of its UTF-8 text, lowercase hex. */
export async function seedCommitment(seed: string): Promise<string> {
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(seed)));
}

export interface RankedCode {
  code: string;
  /** HMAC-SHA256(seed, code), lowercase hex: the code's place in the draw. */
  rank: string;
}

/** Every code in draw order (step 1 of the algorithm above). */
export async function rankCodes(seed: string, codes: readonly string[]): Promise<RankedCode[]> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(seed), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const ranked = await Promise.all(
    codes.map(async (code) => ({ code, rank: hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(code))) })),
  );
  return ranked.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.code < b.code ? -1 : a.code > b.code ? 1 : 0));
}

export interface DrawCode {
  code: string;
  /** The entry (participant) the code belongs to: one prize per entry. */
  entryId: number;
}

/** The winning codes, in draw order (steps 1 and 2 of the algorithm above). */
export async function drawWinners(seed: string, codes: readonly DrawCode[], prizeCount: number): Promise<DrawCode[]> {
  const entryOf = new Map(codes.map((code) => [code.code, code.entryId]));
  const winners: DrawCode[] = [];
  const wonEntries = new Set<number>();
  for (const { code } of await rankCodes(
    seed,
    codes.map((c) => c.code),
  )) {
    if (winners.length >= prizeCount) break;
    const entryId = entryOf.get(code)!;
    if (wonEntries.has(entryId)) continue;
    wonEntries.add(entryId);
    winners.push({ code, entryId });
  }
  return winners;
}

export type LotteryStatus = 'open' | 'drawing' | 'drawn';

/** What a lottery can do now: take entries and help, wait for its draw (time is up), or show its result. */
export type LotteryPhase = 'open' | 'closed' | 'drawn';

export function lotteryPhase(status: LotteryStatus, drawAt: number, now: number): LotteryPhase {
  if (status === 'drawn') return 'drawn';
  return status === 'open' && now < drawAt ? 'open' : 'closed';
}

/** True when the draw is due: the lottery is still open and its draw time has come. */
export function drawIsDue(status: LotteryStatus, drawAt: number, now: number): boolean {
  return status === 'open' && now >= drawAt;
}

export type JoinRefusal = 'lottery_closed' | 'lottery_already_joined';

/** Why a user may not join, or null: only before the draw time, once per lottery. */
export function joinRefusal(phase: LotteryPhase, alreadyJoined: boolean): JoinRefusal | null {
  if (phase !== 'open') return 'lottery_closed';
  return alreadyJoined ? 'lottery_already_joined' : null;
}

export type HelpRefusal = 'lottery_closed' | 'lottery_own_entry' | 'lottery_already_helped' | 'lottery_codes_full';

export interface HelpCheck {
  phase: LotteryPhase;
  helperId: number;
  sharerId: number;
  /** Whether this helper has helped anyone in this lottery already. */
  helpedInLottery: boolean;
  sharerCodeCount: number;
  maxCodesPerEntry: number;
}

/** Why a friend's help may not count, or null: before the draw, not your own entry, once per lottery, up to the cap. */
export function helpRefusal(check: HelpCheck): HelpRefusal | null {
  if (check.phase !== 'open') return 'lottery_closed';
  if (check.helperId === check.sharerId) return 'lottery_own_entry';
  if (check.helpedInLottery) return 'lottery_already_helped';
  if (check.sharerCodeCount >= check.maxCodesPerEntry) return 'lottery_codes_full';
  return null;
}
