/**
 * What an operator sees of a session's buyers before cancelling or postponing it: each paid order's
 * buyer, masked (enough to recognise a complaint later, not enough to read a contact off the
 * screen), and the refunds summed per currency (an amount in one currency never adds to another's).
 */
import { showChangeRefund, type PaidOrderAmounts } from './show-changes.ts';

/** A buyer's name as a preview shows it: its first and last characters, the rest starred ("Chan Tai Man" → "C**********n"). */
export function maskedName(name: string): string {
  const characters = [...name.trim()];
  if (characters.length <= 1) return '*';
  if (characters.length === 2) return `${characters[0]}*`;
  return `${characters[0]}${'*'.repeat(characters.length - 2)}${characters[characters.length - 1]}`;
}

/** A buyer's contact as a preview shows it: a phone's last four digits, an email's first character and domain. */
export function maskedContact(contact: { phone: string | null; email: string | null }): string | null {
  if (contact.phone) return `${'*'.repeat(Math.max(0, contact.phone.length - 4))}${contact.phone.slice(-4)}`;
  if (contact.email) {
    const at = contact.email.lastIndexOf('@');
    return at > 0 ? `${contact.email[0]}***${contact.email.slice(at)}` : '***';
  }
  return null;
}

export interface RefundTotal {
  currency: string;
  orders: number;
  paid: number;
  refund: number;
}

/** The paid orders' totals per currency, what they paid and what a show change gives back, in the currencies' order of first appearance. */
export function refundTotals(orders: readonly (PaidOrderAmounts & { currency: string })[]): RefundTotal[] {
  const totals = new Map<string, RefundTotal>();
  for (const order of orders) {
    const total = totals.get(order.currency) ?? { currency: order.currency, orders: 0, paid: 0, refund: 0 };
    total.orders += 1;
    total.paid += order.total;
    total.refund += showChangeRefund(order);
    totals.set(order.currency, total);
  }
  return [...totals.values()];
}
