/**
 * The voucher page is public (SPEC.md section 2) so it opens at the gate without signing in; its
 * link carries a signature of the order number, which is the capability to see the tickets.
 */
import type { ServiceEnv } from '../platform/env.ts';
import { sign, verify } from '../platform/secrets.ts';

const PURPOSE = 'voucher';

/** The voucher path of an order (without the locale prefix). */
export async function voucherUrl(env: ServiceEnv, orderNo: string): Promise<string> {
  const params = new URLSearchParams({ order: orderNo, key: await sign(env, PURPOSE, orderNo) });
  return `/voucher?${params}`;
}

/** Whether a voucher link's key was signed for this order number. */
export function voucherKeyValid(env: ServiceEnv, orderNo: string, key: string): Promise<boolean> {
  return verify(env, PURPOSE, orderNo, key);
}
