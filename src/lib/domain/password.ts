/**
 * Password hashing: PBKDF2-SHA256 through WebCrypto, a random salt per user and as many iterations
 * as Workers allow. Also the small crypto helpers of sessions, codes and captchas (random tokens,
 * SHA-256, constant-time comparison), so every secret is handled the same way.
 */
import { PASSWORD_ITERATIONS } from '../config/accounts.ts';

const SALT_BYTES = 16;
const HASH_BITS = 256;
const encoder = new TextEncoder();

export interface PasswordHash {
  hash: string;
  salt: string;
  iterations: number;
}

/** Base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url string. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** `size` cryptographically random bytes. */
export function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(size));
}

/** A random, unguessable token (256 bits), base64url. */
export function randomToken(): string {
  return toBase64Url(randomBytes(32));
}

/** A random string of `length` characters drawn uniformly from `alphabet` (rejection sampling, no bias). */
export function randomString(length: number, alphabet: string): string {
  const limit = 256 - (256 % alphabet.length);
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < limit && out.length < length) out += alphabet[byte % alphabet.length];
    }
  }
  return out;
}

/** SHA-256 of a text, hex. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Compares two strings in time that depends only on their lengths, never on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  let difference = left.length ^ right.length;
  for (let i = 0; i < Math.max(left.length, right.length); i++) difference |= (left[i] ?? 0) ^ (right[i] ?? 0);
  return difference === 0;
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<string> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, HASH_BITS);
  return toBase64Url(new Uint8Array(bits));
}

/** Hashes a new password with a fresh salt and PASSWORD_ITERATIONS iterations. */
export async function hashPassword(password: string): Promise<PasswordHash> {
  const salt = randomBytes(SALT_BYTES);
  return { hash: await derive(password, salt, PASSWORD_ITERATIONS), salt: toBase64Url(salt), iterations: PASSWORD_ITERATIONS };
}

/**
 * Whether a password matches a stored hash; the comparison is constant-time. A stored count above
 * what Workers allow never matches (deriving it would throw in production) instead of failing loudly.
 */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  if (!Number.isInteger(stored.iterations) || stored.iterations < 1 || stored.iterations > PASSWORD_ITERATIONS) return false;
  const candidate = await derive(password, fromBase64Url(stored.salt), stored.iterations);
  return constantTimeEqual(candidate, stored.hash);
}

/**
 * A stored hash to check against when the account does not exist, so that a sign-in for an unknown
 * account costs the same time as one with a wrong password (no timing hint of who has an account).
 */
export const DECOY_PASSWORD_HASH: PasswordHash = {
  hash: 'vpY0Hh6C0Wq2mSxkVt8o4gWc5dJ5m2l3o0yq9v1Kf7E',
  salt: 'c2FsdC1vZi1hLWRlY295LXVzZXI',
  iterations: PASSWORD_ITERATIONS,
};
