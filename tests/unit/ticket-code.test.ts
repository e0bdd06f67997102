import { create } from 'qrcode/lib/core/qrcode.js';
import { describe, expect, it } from 'vitest';
import { entryPayload } from '../../src/lib/domain/entry-code.ts';
import { entryQr, QR_QUIET_ZONE, ticketNumbers } from '../../src/lib/domain/ticket-code.ts';

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
    const payload = entryPayload('2026110112345678901-01', '004211');
    const { modules } = create(payload, { errorCorrectionLevel: 'M' });
    const drawing = entryQr(payload);
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

  it('fits a payload of a long order in a version 2 symbol (25 modules), easy to scan', () => {
    expect(entryQr(entryPayload('2026110112345678901-120', '999999')).size).toBe(25 + 2 * QR_QUIET_ZONE);
  });
});
