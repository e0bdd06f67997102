import { describe, expect, it } from 'vitest';
import { mailboxOf } from '../../src/lib/domain/mailbox.ts';

describe('mailboxOf', () => {
  it('takes off a plus tag at any provider, and letter case', () => {
    expect(mailboxOf('Buyer+shop@Example.com')).toBe('buyer@example.com');
    expect(mailboxOf('buyer+a+b@example.com')).toBe('buyer@example.com');
    expect(mailboxOf('buyer@example.com')).toBe('buyer@example.com');
  });

  it('keeps dots where the provider reads them', () => {
    expect(mailboxOf('j.doe@example.com')).toBe('j.doe@example.com');
    expect(mailboxOf('j.doe@outlook.com')).not.toBe(mailboxOf('jdoe@outlook.com'));
  });

  it("makes every Gmail spelling of one inbox one mailbox: dots, tags, Google's two domains", () => {
    for (const spelling of ['j.doe@gmail.com', 'JDoe+tickets@gmail.com', 'j.d.o.e+1@googlemail.com', ' jdoe@GMAIL.com ']) {
      expect(mailboxOf(spelling), spelling).toBe('jdoe@gmail.com');
    }
  });

  it('leaves an address whose local part is only a tag as it is, never an empty mailbox', () => {
    expect(mailboxOf('+tag@example.com')).toBe('+tag@example.com');
    expect(mailboxOf('+tag@gmail.com')).toBe('+tag@gmail.com');
  });
});
