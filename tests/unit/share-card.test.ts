import { describe, expect, it } from 'vitest';
import {
  type CardNode,
  parseShareCardPath,
  type ShareCardContent,
  shareCardPath,
  shareCardText,
  shareCardTree,
  shareCardVersion,
  textColumnWidth,
  textWidthEm,
  titleHeight,
  titleLayout,
} from '../../src/lib/media/share-card.ts';

const lottery: ShareCardContent = {
  subject: { kind: 'lottery', lotteryId: 3 },
  locale: 'zh-HK',
  badge: '免費門票抽獎',
  title: '陳奕迅 演唱會',
  lines: ['08/12/2026 19:30 · 香港體育館', '票價等級：VIP 座位', '獎品：3 份，每份 2 張門票', '開獎：29/11/2026 20:00'],
  poster: '/posters/activity/1000.jpg',
  brand: 'TicketWing',
};

const invitation: ShareCardContent = {
  subject: { kind: 'invitation', currency: 'HKD' },
  locale: 'en',
  badge: 'Welcome gift',
  title: "Register through a friend's link and get",
  lines: ['HK$50 off your first order'],
  poster: null,
  brand: 'TicketWing',
};

/** Every text node of a tree with the style of the element that holds it. */
function texts(node: CardNode): { text: string; style: CardNode['props']['style'] }[] {
  const { children } = node.props;
  if (typeof children === 'string') return [{ text: children, style: node.props.style }];
  if (children === undefined) return [];
  return (Array.isArray(children) ? children : [children]).flatMap(texts);
}

function images(node: CardNode): CardNode[] {
  const { children } = node.props;
  const own = node.type === 'img' ? [node] : [];
  if (children === undefined || typeof children === 'string') return own;
  return [...own, ...(Array.isArray(children) ? children : [children]).flatMap(images)];
}

describe('shareCardPath and parseShareCardPath', () => {
  it('name the language, the subject and the version, and read them back', () => {
    const path = shareCardPath(lottery);
    expect(path).toMatch(/^\/share-cards\/zh-HK\/lottery-3-[0-9a-f]{16}\.jpg$/);
    expect(parseShareCardPath(path)).toEqual({
      locale: 'zh-HK',
      subject: { kind: 'lottery', lotteryId: 3 },
      version: shareCardVersion(lottery),
    });
    expect(shareCardPath(invitation)).toMatch(/^\/share-cards\/en\/invitation-HKD-[0-9a-f]{16}\.jpg$/);
    expect(parseShareCardPath(shareCardPath(invitation))).toEqual({
      locale: 'en',
      subject: { kind: 'invitation', currency: 'HKD' },
      version: shareCardVersion(invitation),
    });
  });

  it('refuse any other path', () => {
    for (const path of [
      '/share-cards/xx/lottery-3-0123456789abcdef.jpg',
      '/share-cards/en/lottery-x-0123456789abcdef.jpg',
      '/share-cards/en/lottery-3-0123456789abcdef.png',
      '/share-cards/en/invitation-0123.jpg',
      '/share-cards/en/invitation-0123456789abcdef.jpg',
      '/share-cards/en/invitation-hkd-0123456789abcdef.jpg',
      '/share-cards/en/lottery-3-0123456789abcdef.jpg/more',
    ]) {
      expect(parseShareCardPath(path), path).toBeNull();
    }
  });
});

describe('shareCardVersion', () => {
  it('is the same for the same card and changes with anything it shows', () => {
    expect(shareCardVersion({ ...lottery, lines: [...lottery.lines] })).toBe(shareCardVersion(lottery));
    const changes: Partial<ShareCardContent>[] = [
      { lines: [...lottery.lines.slice(0, 2), '獎品：4 份，每份 2 張門票', lottery.lines[3]] },
      { title: '陳奕迅 演唱會 加場' },
      { locale: 'zh-TW' },
      { poster: '/posters/activity/1001.jpg' },
      { subject: { kind: 'lottery', lotteryId: 4 } },
      { subject: { kind: 'invitation', currency: 'HKD' } },
    ];
    for (const change of changes)
      expect(shareCardVersion({ ...lottery, ...change }), JSON.stringify(change)).not.toBe(shareCardVersion(lottery));
  });
});

describe('titleLayout', () => {
  const column = textColumnWidth(true);
  const room = titleHeight(4, 'lines');

  it('gives a short title the largest size', () => {
    expect(titleLayout('陳奕迅', column, room).fontSize).toBe(64);
  });

  it('gives a longer title a smaller size, never below the smallest', () => {
    const sizes = [10, 30, 60, 120, 400].map((length) => titleLayout('演'.repeat(length), column, room).fontSize);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(sizes[0]).toBe(64);
    expect(sizes.at(-1)).toBe(40);
  });

  it('keeps the title within the room the other lines leave', () => {
    for (const length of [5, 20, 40, 80, 200]) {
      const { fontSize, maxLines } = titleLayout('Symphony '.repeat(length / 5), column, room);
      expect(maxLines).toBeGreaterThanOrEqual(1);
      expect(maxLines).toBeLessThanOrEqual(3);
      expect(maxLines * fontSize * 1.2).toBeLessThanOrEqual(room);
    }
  });

  it('has room for more title lines with fewer facts, and fewer with coupon tiles', () => {
    expect(titleHeight(2, 'lines')).toBeGreaterThan(titleHeight(4, 'lines'));
    expect(titleHeight(2, 'tiles')).toBeLessThan(titleHeight(2, 'lines'));
  });

  it('counts a CJK character as wide as two Latin ones, about', () => {
    expect(textWidthEm('演唱會')).toBe(3);
    expect(textWidthEm('abc')).toBeCloseTo(1.68);
  });
});

describe('shareCardTree', () => {
  it('draws the poster beside the badge, title, facts and brand', () => {
    const tree = shareCardTree(lottery, 'tc-latin', 'data:image/jpeg;base64,AAAA');
    expect(tree.props.style).toMatchObject({ width: 1200, height: 630, fontFamily: 'tc-latin' });
    expect(images(tree).map((image) => image.props.src)).toEqual(['data:image/jpeg;base64,AAAA']);
    expect(texts(tree).map((node) => node.text)).toEqual([lottery.badge, lottery.title, ...lottery.lines, lottery.brand]);
  });

  it('gives the text the whole width without a poster', () => {
    const tree = shareCardTree(lottery, 'tc-latin', null);
    expect(images(tree)).toEqual([]);
    const wide = shareCardTree({ ...lottery, title: '演'.repeat(40) }, 'tc-latin', null);
    const narrow = shareCardTree({ ...lottery, title: '演'.repeat(40) }, 'tc-latin', 'data:image/jpeg;base64,AAAA');
    const titleSize = (node: CardNode) => texts(node).find((text) => text.text === '演'.repeat(40))!.style.fontSize as number;
    expect(titleSize(wide)).toBeGreaterThan(titleSize(narrow));
  });

  it("draws an invitation's coupons bold, as tiles", () => {
    const tree = shareCardTree(invitation, 'tc-latin', null);
    const coupon = texts(tree).find((node) => node.text === invitation.lines[0])!;
    expect(coupon.style).toMatchObject({ fontWeight: 700, background: '#ffffff' });
  });
});

describe('shareCardText', () => {
  it('asks bold fonts for the headings (and coupons), regular ones for the facts, and both for the ellipsis', () => {
    expect(shareCardText(lottery)).toEqual({
      regular: `${lottery.lines.join('')}\u2026`,
      bold: `${lottery.badge}${lottery.title}${lottery.brand}\u2026`,
    });
    expect(shareCardText(invitation).bold).toContain(invitation.lines[0]);
  });
});
