import { createHmac } from 'node:crypto';
import { create } from 'qrcode/lib/core/qrcode.js';
import { describe, expect, it } from 'vitest';
import { ENTRY_CODE_PATTERN, entryCodeFromSignature, entryQr, QR_QUIET_ZONE, ticketNumbers } from '../../src/lib/domain/ticket-code.ts';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const base64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');

/** An independent reading of the first 80 bits as Crockford base32, through one big integer. */
function referenceCode(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes.subarray(0, 10)).toString('hex')}`);
  let characters = '';
  for (let i = 0; i < 16; i++) {
    characters = CROCKFORD[Number(value & 31n)] + characters;
    value >>= 5n;
  }
  return characters.replace(/(.{4})(?!$)/g, '$1-');
}

describe('ticketNumbers', () => {
  it('numbers the tickets of an order after the order, from 01', () => {
    expect(ticketNumbers('TW2611010001', 3)).toEqual(['TW2611010001-01', 'TW2611010001-02', 'TW2611010001-03']);
    expect(ticketNumbers('A7', 1)).toEqual(['A7-01']);
  });

  it('widens the place for orders of 100 tickets or more, keeping the numbers sortable', () => {
    const numbers = ticketNumbers('X', 120);
    expect(numbers[0]).toBe('X-001');
    expect(numbers[119]).toBe('X-120');
    expect(new Set(numbers).size).toBe(120);
  });

  it('refuses a quantity that is not a positive whole number', () => {
    for (const quantity of [0, -1, 1.5, Number.NaN]) expect(() => ticketNumbers('X', quantity)).toThrow(RangeError);
  });
});

describe('entryCodeFromSignature', () => {
  it('reads the first 80 bits as Crockford base32 in four groups of four', () => {
    expect(entryCodeFromSignature(base64url(new Uint8Array(32)))).toBe('0000-0000-0000-0000');
    expect(entryCodeFromSignature(base64url(new Uint8Array(32).fill(0xff)))).toBe('ZZZZ-ZZZZ-ZZZZ-ZZZZ');
    // 00001 repeated: 0x08 0x42 0x10 0x84 0x21, twice.
    const ones = Uint8Array.from([0x08, 0x42, 0x10, 0x84, 0x21, 0x08, 0x42, 0x10, 0x84, 0x21, 0xff, 0xff]);
    expect(entryCodeFromSignature(base64url(ones))).toBe('1111-1111-1111-1111');
  });

  it('agrees with an independent decoding for real HMAC-SHA256 signatures', () => {
    for (let i = 0; i < 200; i++) {
      const mac = createHmac('sha256', 'test-secret').update(`TW${i}-01`).digest();
      const code = entryCodeFromSignature(base64url(mac));
      expect(code).toBe(referenceCode(mac));
      expect(code).toMatch(ENTRY_CODE_PATTERN);
    }
  });

  it('gives different tickets different codes and the same ticket the same code', () => {
    const codeOf = (ticketNo: string) => entryCodeFromSignature(createHmac('sha256', 'k').update(ticketNo).digest('base64url'));
    expect(codeOf('A-01')).toBe(codeOf('A-01'));
    expect(codeOf('A-01')).not.toBe(codeOf('A-02'));
  });

  it('never uses the letters I, L, O or U', () => {
    const mac = createHmac('sha256', 'k').update('letters').digest();
    for (let i = 0; i < 500; i++) {
      const code = entryCodeFromSignature(base64url(createHmac('sha256', mac).update(String(i)).digest()));
      expect(code).not.toMatch(/[ILOU]/);
    }
  });

  it('refuses what is not a base64url signature of at least 80 bits', () => {
    expect(() => entryCodeFromSignature('not base64!')).toThrow(TypeError);
    expect(() => entryCodeFromSignature(base64url(new Uint8Array(9)))).toThrow(RangeError);
  });
});

/** The cells a path fills, read back from its "M x y h w v1 h-w z" runs. */
function filledCells(path: string): Set<string> {
  const cells = new Set<string>();
  for (const [, x, y, width] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let dx = 0; dx < Number(width); dx++) cells.add(`${Number(x) + dx},${y}`);
  }
  return cells;
}

describe('entryQr', () => {
  it('draws exactly the dark modules qrcode encodes, inside a 4-module quiet zone', () => {
    const code = 'ABCD-EFGH-JKMN-PQRS';
    const { modules } = create(code, { errorCorrectionLevel: 'M' });
    const drawing = entryQr(code);
    expect(drawing.size).toBe(modules.size + 2 * QR_QUIET_ZONE);
    const expected = new Set<string>();
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) {
        if (modules.get(row, col)) expected.add(`${col + QR_QUIET_ZONE},${row + QR_QUIET_ZONE}`);
      }
    }
    expect(expected.size).toBeGreaterThan(100);
    expect(filledCells(drawing.path)).toEqual(expected);
  });

  it('fits an entry code in the smallest symbol (21 modules), the easiest to scan', () => {
    const mac = createHmac('sha256', 'k').update('TW-01').digest('base64url');
    expect(entryQr(entryCodeFromSignature(mac)).size).toBe(21 + 2 * QR_QUIET_ZONE);
  });
});
