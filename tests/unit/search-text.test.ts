import { describe, expect, it } from 'vitest';
import {
  bigramPhrase,
  bigramQuery,
  documentMatches,
  ftsQuery,
  hasLooserMatch,
  isSingleTerm,
  MAX_QUERY_TERMS,
  normalizeKeyword,
  phraseOccurrences,
  searchTerms,
  suggestionTerms,
  textMatches,
} from '../../src/lib/domain/search-text.ts';

describe('searchTerms', () => {
  it('splits words at punctuation and CJK runs into characters, lower-casing words', () => {
    expect(searchTerms('Kelvin Lau-劉嘉朗, NOVA9演唱會!')).toEqual([
      { kind: 'word', text: 'kelvin' },
      { kind: 'word', text: 'lau' },
      { kind: 'cjk', chars: ['劉', '嘉', '朗'] },
      { kind: 'word', text: 'nova9' },
      { kind: 'cjk', chars: ['演', '唱', '會'] },
    ]);
  });

  it('treats CJK punctuation as a separator and full-width letters as ordinary ones (NFKC)', () => {
    expect(searchTerms('《午夜》ＮＯＶＡ')).toEqual([
      { kind: 'cjk', chars: ['午', '夜'] },
      { kind: 'word', text: 'nova' },
    ]);
  });

  it('caps the number of terms and the length of the keyword', () => {
    expect(searchTerms('a b c d e f g h i j k l')).toHaveLength(MAX_QUERY_TERMS);
    expect(normalizeKeyword(`  ${'x'.repeat(150)}  `)).toHaveLength(100);
    expect(normalizeKeyword(' two \n  words ')).toBe('two words');
  });
});

describe('ftsQuery', () => {
  it('quotes every term, prefixes words of two letters or more, and makes a CJK run a phrase', () => {
    expect(ftsQuery('Kelvin 劉嘉朗')).toBe('"kelvin"* "劉 嘉 朗"');
    expect(ftsQuery('a 演唱')).toBe('"a" "演 唱"');
  });

  it('splits CJK runs into single characters in loose mode', () => {
    expect(ftsQuery('劉嘉朗演唱會', 'loose')).toBe('"劉" "嘉" "朗" "演" "唱" "會"');
    expect(hasLooserMatch('劉嘉朗')).toBe(true);
    expect(hasLooserMatch('劉 kelvin')).toBe(false);
  });

  it('never lets FTS5 syntax through: quotes, operators, columns, stars and brackets are dropped', () => {
    for (const hostile of ['"', 'a" OR "b', 'NEAR(a b)', 'name:kelvin', '*', '-lau', '(x', '^start', "'; DROP TABLE activities; --"]) {
      const query = ftsQuery(hostile);
      if (query === null) continue;
      expect(query).toMatch(/^("[\p{L}\p{N}\p{M} ]+"\*? ?)+$/u);
    }
    expect(ftsQuery('name:kelvin')).toBe('"name"* "kelvin"*');
    expect(ftsQuery('AND OR NOT')).toBe('"and"* "or"* "not"*');
  });

  it('is null when nothing in the keyword can match', () => {
    expect(ftsQuery('')).toBeNull();
    expect(ftsQuery('   ')).toBeNull();
    expect(ftsQuery('!!! ？？ 《》')).toBeNull();
  });
});

describe('textMatches', () => {
  it('mirrors the index: word prefixes, consecutive CJK characters, diacritics and case folded', () => {
    expect(textMatches('kel lau', 'Kelvin Lau')).toBe(true);
    expect(textMatches('嘉朗', '劉嘉朗')).toBe(true);
    expect(textMatches('朗嘉', '劉嘉朗')).toBe(false);
    expect(textMatches('liujia', 'liu jia lang liujialang')).toBe(true);
    expect(textMatches('cafe', 'Café Concert')).toBe(true);
    expect(textMatches('arena', 'Kelvin Lau')).toBe(false);
    expect(textMatches('', 'anything')).toBe(false);
  });
});

describe('documentMatches', () => {
  const kelvinShow = [
    'Kelvin Lau World Tour 劉嘉朗世界巡迴',
    'Kelvin Lau 劉嘉朗 刘嘉朗 liu jia lang liujialang',
    'Hong Kong Coliseum 紅磡體育館',
  ];

  it('matches every term in some column, a CJK run within one column', () => {
    expect(documentMatches('kelvin coli', kelvinShow, 'phrase')).toBe(true);
    expect(documentMatches('liujia tour', kelvinShow, 'phrase')).toBe(true);
    expect(documentMatches('tour 紅館', kelvinShow, 'phrase')).toBe(false);
    expect(documentMatches('tour 紅館', kelvinShow, 'loose')).toBe(true);
    expect(documentMatches('kelvin l', kelvinShow, 'phrase')).toBe(false);
    expect(documentMatches('KÉLVIN', kelvinShow, 'phrase')).toBe(true);
  });

  it('does not join a CJK run across columns', () => {
    // 巡迴 ends the name column and 劉 begins nothing next to it in another column.
    expect(documentMatches('迴劉', kelvinShow, 'phrase')).toBe(false);
    expect(documentMatches('迴劉', kelvinShow, 'loose')).toBe(true);
  });
});

describe('suggestionTerms and isSingleTerm', () => {
  it('covers each word folded as the index folds it and each CJK character once', () => {
    expect(suggestionTerms('Kelvin L')).toEqual(['"kelvin"*', '"l"']);
    expect(suggestionTerms('Café')).toEqual(['"cafe"*']);
    expect(suggestionTerms('劉嘉 tour 劉')).toEqual(['"劉"', '"嘉"', '"tour"*']);
    expect(suggestionTerms(' "*')).toEqual([]);
  });

  it('tells a keyword whose matches are one term’s', () => {
    expect(isSingleTerm('kel')).toBe(true);
    expect(isSingleTerm('劉')).toBe(true);
    expect(isSingleTerm('劉嘉')).toBe(false);
    expect(isSingleTerm('kelvin lau')).toBe(false);
  });
});

describe('bigramPhrase and bigramQuery', () => {
  it('take a keyword that is one CJK run of two or more bigram characters, as pairs', () => {
    expect(bigramPhrase('高靜文')).toEqual(['高', '靜', '文']);
    expect(bigramQuery(['高', '靜', '文'])).toBe('"高靜" "靜文"');
    expect(bigramPhrase('《午夜》')).toEqual(['午', '夜']);
    expect(bigramPhrase('カラオケ')).toEqual(['カ', 'ラ', 'オ', 'ケ']);
  });

  it('leave words, single characters, several runs and other characters to the main index', () => {
    for (const keyword of ['Kelvin', '劉', '劉嘉 tour', '夢想 世界', '\u9fcd嘉', '']) expect(bigramPhrase(keyword), keyword).toBeNull();
  });
});

describe('phraseOccurrences', () => {
  it('counts consecutive tokens across separators, overlapping ones too, and not across a word', () => {
    expect(phraseOccurrences(['想', '世'], 'Dreams  夢  想  》  ·  世  界 ')).toBe(1);
    expect(phraseOccurrences(['哈', '哈'], ' 哈  哈  哈 ')).toBe(2);
    expect(phraseOccurrences(['想', '世'], ' 夢  想  Live  世  界 ')).toBe(0);
    expect(phraseOccurrences(['劉', '嘉'], 'Kelvin Lau  劉  嘉  朗   刘  嘉  朗 劉  嘉 ')).toBe(2);
  });
});
