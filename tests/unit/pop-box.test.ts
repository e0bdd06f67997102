import { describe, expect, it } from 'vitest';
import { popBoxMessage as popBoxMessageWith, type BoxMoney } from '../../src/lib/domain/pop-box.ts';

/** Money written as the kind and the minor units, so a test sees exactly what was asked for. */
const plainMoney: BoxMoney = (units, kind) => `<${kind} ${units}>`;
const popBoxMessage = (content: string, locale: Parameters<typeof popBoxMessageWith>[1]) => popBoxMessageWith(content, locale, plainMoney);

const content = JSON.stringify({
  title: { en: 'Welcome gift', 'zh-Hant': '新人禮遇', 'zh-Hans': '新人礼遇' },
  body: { en: 'HK$100 off', 'zh-Hant': '立減HK$100', 'zh-Hans': '立减HK$100' },
  link: '/couponList',
});

describe('popBoxMessage', () => {
  it('reads the title and body of the locale script, and the link', () => {
    expect(popBoxMessage(content, 'en')).toEqual({ title: 'Welcome gift', body: 'HK$100 off', link: '/couponList' });
    expect(popBoxMessage(content, 'zh-TW')).toMatchObject({ title: '新人禮遇', body: '立減HK$100' });
    expect(popBoxMessage(content, 'zh-CN')).toMatchObject({ title: '新人礼遇' });
  });

  it('falls back to English when the script is missing', () => {
    const english = JSON.stringify({ title: { en: 'Hello' }, body: { en: 'World' } });
    expect(popBoxMessage(english, 'zh-HK')).toEqual({ title: 'Hello', body: 'World', link: null });
  });

  it('rejects content that is not JSON or lacks a title or body', () => {
    expect(popBoxMessage('not json', 'en')).toBeNull();
    expect(popBoxMessage('"just a string"', 'en')).toBeNull();
    expect(popBoxMessage(JSON.stringify({ title: { en: 'x' } }), 'en')).toBeNull();
    expect(popBoxMessage(JSON.stringify({ title: { en: ' ' }, body: { en: 'y' } }), 'en')).toBeNull();
  });

  it('keeps only same-site links', () => {
    const withLink = (link: unknown) => popBoxMessage(JSON.stringify({ title: { en: 't' }, body: { en: 'b' }, link }), 'en')?.link;
    expect(withLink('/activity/3?from=pop')).toBe('/activity/3?from=pop');
    expect(withLink('//evil.example/x')).toBeNull();
    expect(withLink('/\\evil.example')).toBeNull();
    expect(withLink('https://evil.example/')).toBeNull();
    expect(withLink('javascript:alert(1)')).toBeNull();
    expect(withLink(42)).toBeNull();
  });

  it('writes money placeholders in the currency of the reader, amounts and minimums apart', () => {
    const offer = JSON.stringify({
      title: { en: 'Welcome gift: {amount:10000} off', 'zh-Hant': '新人禮遇：立減{amount:10000}' },
      body: { en: 'Over {minimum:50000}, get {amount:10000} off. Not money: {amount:x} {price:5}' },
    });
    expect(popBoxMessage(offer, 'en')).toMatchObject({
      title: 'Welcome gift: <amount 10000> off',
      body: 'Over <minimum 50000>, get <amount 10000> off. Not money: {amount:x} {price:5}',
    });
    const inTwd: BoxMoney = (units, kind) => (kind === 'amount' ? `NT$${(units * 41) / 1000}` : `NT$${Math.ceil((units / 100) * 4.1)}`);
    expect(popBoxMessageWith(offer, 'zh-TW', inTwd)?.title).toBe('新人禮遇：立減NT$410');
  });
});
