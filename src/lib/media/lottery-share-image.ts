/**
 * The share image of a lottery entry: a 600×800 SVG card with the show, the prize, the steps for a
 * friend and a QR code of the share link, drawn on the server so the page ships no canvas code.
 */
import { qrSvg } from '../domain/payment-qr.ts';

export interface ShareImageText {
  title: string;
  activityName: string;
  prize: string;
  drawAt: string;
  steps: readonly string[];
  url: string;
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char]!);
}

/** Splits text into lines of at most `width` characters (a CJK character counts as two). */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  let used = 0;
  for (const char of text) {
    const size = /[\u2E80-\uFFFF]/.test(char) ? 2 : 1;
    if (used + size > width && line.trim() !== '') {
      lines.push(line.trim());
      line = '';
      used = 0;
    }
    line += char;
    used += size;
  }
  if (line.trim() !== '') lines.push(line.trim());
  return lines;
}

/** The SVG document; every text is escaped, so user-chosen names cannot become markup. */
export function shareImageSvg(text: ShareImageText): string {
  const name = wrapText(text.activityName, 34).slice(0, 3);
  const nameLines = name
    .map((line, i) => `<text x="40" y="${150 + i * 40}" font-size="30" font-weight="700" fill="#fff">${escapeXml(line)}</text>`)
    .join('');
  const steps = text.steps
    .map((step, i) => `<text x="40" y="${330 + i * 34}" font-size="22" fill="#1f2937">${i + 1}. ${escapeXml(step)}</text>`)
    .join('');
  const qr = qrSvg(text.url).replace('<svg ', '<svg x="200" y="520" width="200" height="200" ');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 800" width="600" height="800" font-family="system-ui, sans-serif">` +
    `<rect width="600" height="800" fill="#fff7ed"/><rect width="600" height="280" fill="#b45309"/>` +
    `<text x="40" y="80" font-size="26" fill="#ffedd5">${escapeXml(text.title)}</text>${nameLines}` +
    `<text x="40" y="262" font-size="22" fill="#fff">${escapeXml(text.prize)} · ${escapeXml(text.drawAt)}</text>${steps}` +
    `${qr}<text x="300" y="760" font-size="16" fill="#4b5563" text-anchor="middle">${escapeXml(text.url)}</text></svg>`
  );
}
