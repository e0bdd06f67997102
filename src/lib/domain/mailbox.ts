/** Which mailbox an email address delivers to, so limits count a person's inbox once, not each spelling of it. */

/**
 * Providers that ignore dots in the local part (j.doe@ and jdoe@ are one Gmail inbox), with the
 * domain they are one mailbox under: Google's two domains are the same accounts.
 */
const DOTLESS_DOMAINS: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The address's mailbox: lower case, without a plus tag (name+shop@ reaches name@ at every large
 * provider), and for Gmail without dots and under one domain. Only for counting (rate limits): mail
 * still goes to the address as typed, and an account is still the address as typed.
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  const domain = address.slice(at + 1);
  const local = address.slice(0, at);
  // A local part that is all tag stays whole: never an empty mailbox that every such address shares.
  const untagged = local.split('+', 1)[0] || local;
  const dotless = DOTLESS_DOMAINS[domain];
  return dotless ? `${untagged.replaceAll('.', '')}@${dotless}` : `${untagged}@${domain}`;
}
