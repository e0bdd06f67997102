/**
 * The app secret behind every signature we hand out: ticket entry secrets, voucher links and the
 * sandbox provider's webhooks. Production must set APP_SECRET (`wrangler secret put APP_SECRET`);
 * a local run falls back to a fixed development secret so `npm start` needs no setup.
 */
import { DomainError } from '../../domain/errors.ts';
import type { ServiceEnv } from './env.ts';

const LOCAL_SECRET = 'ticketwing-local-development-secret';
const encoder = new TextEncoder();

function appSecret(env: ServiceEnv): string {
  if (env.APP_SECRET) return env.APP_SECRET;
  if (env.APP_ENV === 'local') return LOCAL_SECRET;
  throw new DomainError('server_misconfigured');
}

function base64url(bytes: ArrayBuffer): string {
  let binary = '';
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * HMAC-SHA256 under the app secret, base64url, of each message given to the function answered.
 * `purpose` separates the uses, so a signature made for one (a voucher link) is never valid for
 * another (a webhook). Its key is imported once per isolate (keyFor).
 */
export async function signerFor(env: ServiceEnv, purpose: string): Promise<(message: string) => Promise<string>> {
  const key = await keyFor(`${purpose}:${appSecret(env)}`);
  return async (message) => base64url(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
}

/**
 * Each purpose's key, imported once per isolate: a hot on-sale checks a pass on every order and
 * signs one on every confirmation page. Keyed by purpose and secret, so a changed secret is a new key.
 */
const keys = new Map<string, CryptoKey>();

async function keyFor(material: string): Promise<CryptoKey> {
  const known = keys.get(material);
  if (known) return known;
  const key = await crypto.subtle.importKey('raw', encoder.encode(material), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  keys.set(material, key);
  return key;
}

/** The signature of one message for `purpose` (see signerFor). */
export async function sign(env: ServiceEnv, purpose: string, message: string): Promise<string> {
  return (await signerFor(env, purpose))(message);
}

/** Compares a presented signature with the expected one in constant time. */
export async function verify(env: ServiceEnv, purpose: string, message: string, presented: string): Promise<boolean> {
  const expected = await sign(env, purpose, message);
  if (presented.length !== expected.length) return false;
  let difference = 0;
  for (let i = 0; i < expected.length; i++) difference |= expected.charCodeAt(i) ^ presented.charCodeAt(i);
  return difference === 0;
}
