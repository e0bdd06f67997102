/**
 * The QR code a WeChat Pay or Alipay buyer scans (SPEC.md section 9), drawn as an SVG on the server
 * so the payment page ships no QR library. The `qrcode` package encodes; we only draw its modules.
 */
import { create } from 'qrcode/lib/core/qrcode.js';

/** Light modules around the code, as the QR standard asks (scanners need the quiet zone). */
const QUIET_ZONE = 4;

/** The SVG path of the dark modules of a size×size grid: one rectangle per horizontal run. */
export function modulesPath(size: number, isDark: (row: number, col: number) => boolean, offset = 0): string {
  const parts: string[] = [];
  for (let row = 0; row < size; row++) {
    let col = 0;
    while (col < size) {
      if (!isDark(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < size && isDark(row, col)) col++;
      parts.push(`M${start + offset} ${row + offset}h${col - start}v1h-${col - start}z`);
    }
  }
  return parts.join('');
}

/** A standalone SVG of the QR code of `text` (error correction M, quiet zone included). */
export function qrSvg(text: string): string {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const side = modules.size + QUIET_ZONE * 2;
  const path = modulesPath(modules.size, (row, col) => Boolean(modules.get(row, col)), QUIET_ZONE);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${side} ${side}" shape-rendering="crispEdges">` +
    `<rect width="${side}" height="${side}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`
  );
}
