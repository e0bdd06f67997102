/**
 * The voucher page is public (SPEC.md section 2) so it opens at the gate without signing in; its
 * link carries a signature of the order number, which is the capability to see the tickets.
 */
import { sign, verify } from './secrets.ts';

const PURPOSE = 'voucher';

/** The voucher path of an order (without the locale prefix). */
export async function voucherUrl(orderNo: string): Promise<string> {
  const params = new URLSearchParams({ order: orderNo, key: await sign(PURPOSE, orderNo) });
  return `/voucher?${params}`;
}

/** Whether a voucher link's key was signed for this order number. */
export function voucherKeyValid(orderNo: string, key: string): Promise<boolean> {
  return verify(PURPOSE, orderNo, key);
}
