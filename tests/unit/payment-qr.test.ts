import { create } from 'qrcode/lib/core/qrcode.js';
import { describe, expect, it } from 'vitest';
import { modulesPath, qrSvg } from '../../src/lib/domain/payment-qr.ts';

/** The dark cells a path of `M{x} {y}h{n}v1h-{n}z` rectangles covers. */
function cellsOf(path: string): Set<string> {
  const cells = new Set<string>();
  for (const [, x, y, width] of path.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g)) {
    for (let i = 0; i < Number(width); i++) cells.add(`${Number(x) + i},${y}`);
  }
  return cells;
}

describe('modulesPath', () => {
  it('draws one rectangle per horizontal run of dark modules', () => {
    const grid = ['##.#', '....', '.###', '#..#'];
    const path = modulesPath(4, (row, col) => grid[row][col] === '#');
    expect(path).toBe('M0 0h2v1h-2zM3 0h1v1h-1zM1 2h3v1h-3zM0 3h1v1h-1zM3 3h1v1h-1z');
  });

  it('shifts by the offset', () => {
    expect(modulesPath(1, () => true, 4)).toBe('M4 4h1v1h-1z');
  });
});

describe('qrSvg', () => {
  const url = 'http://127.0.0.1:4411/en/sandbox/pay/sbx_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG';

  it('draws exactly the modules the encoder produced, inside a quiet zone of four', () => {
    const { modules } = create(url, { errorCorrectionLevel: 'M' });
    const svg = qrSvg(url);
    const side = modules.size + 8;
    expect(svg).toContain(`viewBox="0 0 ${side} ${side}"`);
    const drawn = cellsOf(svg.match(/<path fill="#000" d="([^"]+)"/)![1]);
    const expected = new Set<string>();
    for (let row = 0; row < modules.size; row++) {
      for (let col = 0; col < modules.size; col++) if (modules.get(row, col)) expected.add(`${col + 4},${row + 4}`);
    }
    expect(drawn).toEqual(expected);
    // The top-left finder pattern: a full row of seven dark modules at the quiet zone's edge.
    expect(svg).toContain('M4 4h7v1h-7z');
  });

  it('changes with the content', () => {
    expect(qrSvg(url)).not.toBe(qrSvg(`${url}x`));
  });
});
