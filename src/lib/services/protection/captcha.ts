/**
 * Graphic captcha challenges: a random answer drawn as a PNG, stored hashed with the client it was
 * shown to, checked once. Whether a captcha is needed at all is the sign-in guard's call (accounts/captcha-gate.ts).
 */
import { and, eq, gt, isNull } from 'drizzle-orm';
import { CAPTCHA_LENGTH, CAPTCHA_TTL_MS, CAPTCHAS_PER_CLIENT_MINUTE } from '../../config/accounts.ts';
import type { Db } from '../../data/client.ts';
import { captchaChallenges } from '../../db/schema.ts';
import { CAPTCHA_ALPHABET, drawCaptcha, isCaptchaShaped, normalizeCaptchaAnswer } from '../../media/captcha.ts';
import { DomainError } from '../../domain/errors.ts';
import { constantTimeEqual, randomBytes, randomString, randomToken, sha256Hex } from '../../domain/password.ts';
import { encodePng } from '../../media/png.ts';
import { hitAll } from './rate-limit.ts';

const answerHash = (id: string, answer: string) => sha256Hex(`captcha:${id}:${answer}`);

/** A crypto-backed source of numbers in [0, 1) for the drawing's distortions, refilled as it runs out. */
function secureRandom(): () => number {
  let pool = new Uint32Array(0);
  let next = 0;
  return () => {
    if (next === pool.length) [pool, next] = [new Uint32Array(randomBytes(4 * 256).buffer), 0];
    return pool[next++] / 2 ** 32;
  };
}

/** zlib-deflates bytes with the runtime's CompressionStream (Workers and Node alike). */
async function deflate(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export interface Challenge {
  id: string;
  png: Uint8Array<ArrayBuffer>;
  /** For the dev-mode answer hook of a local build only (the route decides); never stored in clear. */
  answer: string;
}

/** Creates a challenge for a client and returns its id (kept in a cookie) and its image; a 429 when it asks too often. */
export async function createChallenge(db: Db, clientKey: string, now: number): Promise<Challenge> {
  const [hit] = await hitAll(db, [{ key: `captcha:client:${clientKey}`, windowMs: 60_000 }], now);
  if (hit.count > CAPTCHAS_PER_CLIENT_MINUTE) throw new DomainError('rate_limited');
  const id = randomToken();
  const answer = randomString(CAPTCHA_LENGTH, CAPTCHA_ALPHABET);
  await storeChallenge(db, id, answer, clientKey, now);
  return { id, png: await encodePng(drawCaptcha(answer, secureRandom()), deflate), answer };
}

/** Records a challenge's hashed answer for one client, valid for CAPTCHA_TTL_MS. */
export async function storeChallenge(db: Db, id: string, answer: string, clientKey: string, now: number): Promise<void> {
  await db.insert(captchaChallenges).values({
    id,
    answerHash: await answerHash(id, normalizeCaptchaAnswer(answer)),
    clientKey,
    expiresAt: now + CAPTCHA_TTL_MS,
    createdAt: now,
  });
}

/**
 * Whether the answer solves the challenge. A challenge counts once, right or wrong, and only for
 * the client it was shown to and before it expires: the guarded update claims it first.
 */
export async function solveChallenge(db: Db, id: string | undefined, answer: string, clientKey: string, now: number): Promise<boolean> {
  if (!id || id.length > 64) return false;
  const [claimed] = await db
    .update(captchaChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(captchaChallenges.id, id),
        isNull(captchaChallenges.usedAt),
        eq(captchaChallenges.clientKey, clientKey),
        gt(captchaChallenges.expiresAt, now),
      ),
    )
    .returning({ answerHash: captchaChallenges.answerHash });
  if (!claimed || !isCaptchaShaped(answer)) return false;
  return constantTimeEqual(await answerHash(id, normalizeCaptchaAnswer(answer)), claimed.answerHash);
}
