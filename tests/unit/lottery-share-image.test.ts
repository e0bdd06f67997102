import { describe, expect, it } from 'vitest';
import { shareImageSvg, wrapText } from '../../src/lib/media/lottery-share-image.ts';

describe('the share image', () => {
  const text = {
    title: 'Free-ticket lottery',
    activityName: 'Rock <Night> & "Friends"',
    prize: 'Prizes: 3',
    drawAt: 'Draw: 12/01',
    steps: ['Scan', 'Help'],
    url: 'https://example.com/en/overload-ticket/abc/share',
  };

  it('escapes every text, so names cannot become markup', () => {
    const svg = shareImageSvg(text);
    expect(svg).toContain('Rock &lt;Night&gt; &amp; &quot;Friends&quot;');
    expect(svg).not.toContain('<Night>');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('1. Scan');
    expect(svg).toContain('2. Help');
    expect(svg).toContain(text.url);
  });

  it('embeds a QR code of the share link', () => {
    expect(shareImageSvg(text)).toMatch(
      /<svg x="200" y="520" width="200" height="200" xmlns="http:\/\/www.w3.org\/2000\/svg" viewBox="0 0 \d+ \d+"/,
    );
  });

  it('wraps long names, counting a CJK character as two columns', () => {
    expect(wrapText('aaaa bbbb cccc', 9)).toEqual(['aaaa bbbb', 'cccc']);
    expect(wrapText('劉嘉朗演唱會', 6)).toEqual(['劉嘉朗', '演唱會']);
  });
});
