import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ENTRY_CODE_DIGITS, ENTRY_CODE_SKEW_STEPS, ENTRY_CODE_STEP_SECONDS } from '../../src/lib/config/gate.ts';
import {
  base64urlBytes,
  currentEntryCode,
  ENTRY_TOTP,
  entryCodeValid,
  entryPayload,
  hotp,
  matchingStep,
  msUntilNextStep,
  parseEntryScan,
  timeStep,
  totp,
  type TotpHash,
} from '../../src/lib/domain/entry-code.ts';

const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'ascii'));

/** RFC 6238 Appendix B: the seed of each hash, and the 8-digit codes at each time with a 30 s step. */
const RFC_SEEDS: Record<TotpHash, Uint8Array<ArrayBuffer>> = {
  'SHA-1': bytes('12345678901234567890'),
  'SHA-256': bytes('12345678901234567890123456789012'),
  'SHA-512': bytes('1234567890123456789012345678901234567890123456789012345678901234'),
};
const RFC_VECTORS: Array<[seconds: number, hash: TotpHash, code: string]> = [
  [59, 'SHA-1', '94287082'],
  [59, 'SHA-256', '46119246'],
  [59, 'SHA-512', '90693936'],
  [1111111109, 'SHA-1', '07081804'],
  [1111111109, 'SHA-256', '68084774'],
  [1111111109, 'SHA-512', '25091201'],
  [1111111111, 'SHA-1', '14050471'],
  [1111111111, 'SHA-256', '67062674'],
  [1111111111, 'SHA-512', '99943326'],
  [1234567890, 'SHA-1', '89005924'],
  [1234567890, 'SHA-256', '91819424'],
  [1234567890, 'SHA-512', '93441116'],
  [2000000000, 'SHA-1', '69279037'],
  [2000000000, 'SHA-256', '90698825'],
  [2000000000, 'SHA-512', '38618901'],
  [20000000000, 'SHA-1', '65353130'],
  [20000000000, 'SHA-256', '77737706'],
  [20000000000, 'SHA-512', '47863826'],
];

describe('totp', () => {
  it('gives the RFC 6238 test vectors (Appendix B: 30 s step, 8 digits)', async () => {
    for (const [seconds, hash, code] of RFC_VECTORS) {
      expect(await totp(RFC_SEEDS[hash], seconds * 1000, { stepSeconds: 30, digits: 8, hash }), `${hash} at ${seconds}`).toBe(code);
    }
  });

  it('gives the RFC 4226 HOTP vectors (Appendix D: counters 0 to 9, 6 digits)', async () => {
    const expected = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];
    const codes = await Promise.all(expected.map((_, counter) => hotp(RFC_SEEDS['SHA-1'], counter, 6, 'SHA-1')));
    expect(codes).toEqual(expected);
  });

  it('agrees with an independent HOTP through node:crypto for the entry parameters', async () => {
    const key = createHmac('sha256', 'k').update('ticket').digest();
    const reference = (counter: number) => {
      const message = Buffer.alloc(8);
      message.writeBigUInt64BE(BigInt(counter));
      const mac = createHmac('sha256', key).update(message).digest();
      const offset = mac[mac.length - 1] & 0x0f;
      return String((mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** ENTRY_CODE_DIGITS).padStart(ENTRY_CODE_DIGITS, '0');
    };
    for (let i = 0; i < 50; i++) {
      const at = Date.UTC(2026, 10, 1) + i * 7_919;
      expect(await totp(new Uint8Array(key), at, ENTRY_TOTP)).toBe(reference(timeStep(at, ENTRY_CODE_STEP_SECONDS)));
    }
  });

  it('changes every step and stays the same within one', async () => {
    const key = RFC_SEEDS['SHA-256'];
    const start = 1_800_000_000_000 - (1_800_000_000_000 % (ENTRY_CODE_STEP_SECONDS * 1000));
    const first = await totp(key, start, ENTRY_TOTP);
    expect(await totp(key, start + ENTRY_CODE_STEP_SECONDS * 1000 - 1, ENTRY_TOTP)).toBe(first);
    expect(await totp(key, start + ENTRY_CODE_STEP_SECONDS * 1000, ENTRY_TOTP)).not.toBe(first);
    expect(first).toMatch(new RegExp(`^\\d{${ENTRY_CODE_DIGITS}}$`));
  });

  it('refuses a counter or a length outside what HOTP defines', async () => {
    await expect(hotp(RFC_SEEDS['SHA-1'], -1, 6, 'SHA-1')).rejects.toThrow(RangeError);
    await expect(hotp(RFC_SEEDS['SHA-1'], 0, 5, 'SHA-1')).rejects.toThrow(RangeError);
    await expect(hotp(RFC_SEEDS['SHA-1'], 0, 10, 'SHA-1')).rejects.toThrow(RangeError);
  });
});

describe('the skew window', () => {
  const key = RFC_SEEDS['SHA-256'];
  const stepMs = ENTRY_CODE_STEP_SECONDS * 1000;
  const now = 1_900_000_000_000 + 4_000;
  const codeAt = (offset: number) => totp(key, now + offset * stepMs, ENTRY_TOTP);

  it('matches the current step and one either side, and says which', async () => {
    expect(await matchingStep(key, await codeAt(0), now, ENTRY_TOTP, 1)).toBe(0);
    expect(await matchingStep(key, await codeAt(-1), now, ENTRY_TOTP, 1)).toBe(-1);
    expect(await matchingStep(key, await codeAt(1), now, ENTRY_TOTP, 1)).toBe(1);
  });

  it('refuses a code older or newer than the window: a screenshot taken 30 s or more ago', async () => {
    for (const offset of [-2, -3, -40, 2])
      expect(await matchingStep(key, await codeAt(offset), now, ENTRY_TOTP, 1), String(offset)).toBeNull();
    expect(await matchingStep(key, await codeAt(-2), now, ENTRY_TOTP, 2)).toBe(-2);
    expect(await matchingStep(key, await codeAt(-1), now, ENTRY_TOTP, 0)).toBeNull();
  });

  it("refuses another secret's code and a malformed one", async () => {
    const other = RFC_SEEDS['SHA-1'];
    expect(await matchingStep(key, await totp(other, now, ENTRY_TOTP), now, ENTRY_TOTP, 1)).toBeNull();
    expect(await matchingStep(key, '', now, ENTRY_TOTP, 1)).toBeNull();
  });

  it('admits by the configured window, one step either side, with the secret as base64url', async () => {
    expect(ENTRY_CODE_SKEW_STEPS).toBe(1);
    const secret = Buffer.from(key).toString('base64url');
    expect(base64urlBytes(secret)).toEqual(key);
    const code = await currentEntryCode(secret, now);
    expect(await entryCodeValid(secret, code, now)).toBe(true);
    expect(await entryCodeValid(secret, code, now + stepMs)).toBe(true);
    expect(await entryCodeValid(secret, code, now + 2 * stepMs)).toBe(false);
    expect(() => base64urlBytes('not base64!')).toThrow(TypeError);
  });

  it('counts down to the next code', () => {
    expect(msUntilNextStep(0, 15)).toBe(15_000);
    expect(msUntilNextStep(1, 15)).toBe(14_999);
    expect(msUntilNextStep(14_999, 15)).toBe(1);
    expect(msUntilNextStep(15_000, 15)).toBe(15_000);
  });
});

describe('parseEntryScan', () => {
  it('reads what a voucher QR code carries: the ticket number and its code', async () => {
    const payload = entryPayload('2026110112345-01', '004211');
    expect(payload).toBe('2026110112345-01 004211');
    expect(parseEntryScan(payload)).toEqual({ kind: 'code', ticketNo: '2026110112345-01', code: '004211' });
    expect(parseEntryScan('  2026110112345-01 /  004211 ')).toEqual({ kind: 'code', ticketNo: '2026110112345-01', code: '004211' });
    expect(parseEntryScan('2026110112345-01/004211')).toEqual({ kind: 'code', ticketNo: '2026110112345-01', code: '004211' });
  });

  it('reads a ticket number typed alone as the photo-ID check', () => {
    expect(parseEntryScan(' 2026110112345-01 ')).toEqual({ kind: 'ticket', ticketNo: '2026110112345-01' });
    expect(parseEntryScan('tw7-001')).toEqual({ kind: 'ticket', ticketNo: 'TW7-001' });
  });

  it('refuses anything else', () => {
    for (const text of [
      '',
      '   ',
      'hello',
      '2026110112345',
      '2026110112345-01 12345',
      '2026110112345-01 1234567',
      '2026110112345-01 00421a',
      'a-1 b 2',
      `${'1'.repeat(48)}-01`,
    ]) {
      expect(parseEntryScan(text), text).toBeNull();
    }
  });
});
