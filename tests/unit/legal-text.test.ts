import { describe, expect, it } from 'vitest';
import { blocksOf, liabilityCap, termsLastUpdated } from '../../src/lib/domain/legal-text.ts';
import { catalogues } from '../../src/lib/i18n/index.ts';

describe('legal facts', () => {
  it('states the liability cap as HK$500.00', () => {
    expect(liabilityCap('en')).toBe('HK$500.00');
    expect(liabilityCap('zh-HK')).toBe('HK$500.00');
  });

  it('writes the last update, 16 July 2024, in the locale', () => {
    expect(termsLastUpdated('en')).toBe('July 16, 2024');
    expect(termsLastUpdated('zh-HK')).toBe('2024年7月16日');
    expect(termsLastUpdated('zh-CN')).toBe('2024年7月16日');
  });
});

describe('catalogue text blocks', () => {
  it('splits paragraphs on blank lines and joins wrapped lines', () => {
    expect(blocksOf('First.\n\nSecond\nline.')).toEqual([
      { kind: 'paragraph', text: 'First.' },
      { kind: 'paragraph', text: 'Second line.' },
    ]);
  });

  it('turns a paragraph of "- " lines into a list, and keeps mixed ones as text', () => {
    expect(blocksOf('Intro:\n\n- one\n- two\n\nOutro.')).toEqual([
      { kind: 'paragraph', text: 'Intro:' },
      { kind: 'list', items: ['one', 'two'] },
      { kind: 'paragraph', text: 'Outro.' },
    ]);
    expect(blocksOf('- one\nnot a bullet')).toEqual([{ kind: 'paragraph', text: '- one not a bullet' }]);
    expect(blocksOf('  \n\n ')).toEqual([]);
  });

  it('keeps markup as text', () => {
    expect(blocksOf('<b>x</b>')).toEqual([{ kind: 'paragraph', text: '<b>x</b>' }]);
  });
});

describe('legal content', () => {
  const en = catalogues.en;

  it('carries the spec facts in the user agreement', () => {
    expect(en['info.terms.refunds.body']).toContain('platform service fee and any paper-ticket mailing fee');
    expect(en['info.terms.refunds.body']).toContain('refund handling fee shown on the event page');
    expect(en['info.terms.refunds.body']).toContain('no seven-day no-reason return');
    expect(en['info.terms.liability.body']).toContain('twelve months');
    expect(en['info.terms.law.body']).toContain('non-exclusive jurisdiction of the courts of Hong Kong');
    expect(en['info.terms.use.body']).toMatch(/personal, non-commercial use/);
    expect(en['info.terms.use.body']).toMatch(/scrapers/);
    expect(en['info.terms.termination.body']).toContain('without notice');
    expect(en['info.terms.delivery.body']).toContain('from 1 hour before the show');
    expect(en['info.terms.delivery.body']).toContain('SMS');
    expect(en['info.terms.guarantee.body']).toContain('up to 1:1');
  });

  it('says in every language that English prevails', () => {
    expect(en['info.legal.englishPrevails']).toContain('the English version prevails');
    expect(catalogues['zh-Hant']['info.legal.englishPrevails']).toContain('以英文版本為準');
    expect(catalogues['zh-Hans']['info.legal.englishPrevails']).toContain('以英文版本为准');
  });
});
