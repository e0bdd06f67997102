/**
 * How typed text becomes an FTS5 query over the search index of migration 0002.
 *
 * The index spaces out every character at or above U+2E80 (CJK ideographs, kana, Hangul, full-width
 * forms), so each one is a token, while other scripts keep unicode61's words. Queries are split the
 * same way: a word becomes a prefix term, a run of CJK characters a phrase of consecutive
 * characters, so a two-character name matches inside a longer title. Every term is quoted and holds
 * only letters, digits and marks, so no input can produce FTS5 syntax (or an FTS5 syntax error).
 */

/** Characters from here up are indexed one by one; the migration's view uses the same bound (11904). */
export const SPACED_SCRIPT_START = 0x2e80;
/** Longest keyword looked at, in characters. */
export const MAX_QUERY_CHARS = 100;
/** At most this many terms are matched, so a pasted paragraph cannot make an expensive query. */
export const MAX_QUERY_TERMS = 8;
/** Latin words this short match exactly; a one-letter prefix would match half the index. */
const MIN_PREFIX_LENGTH = 2;

export type SearchTerm = { kind: 'word'; text: string } | { kind: 'cjk'; chars: string[] };

/** How strictly a CJK run must match: as consecutive characters, or each character anywhere. */
export type MatchMode = 'phrase' | 'loose';

const TOKEN_CHAR = /[\p{L}\p{N}\p{M}]/u;
const HAS_LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

function isSpacedChar(char: string): boolean {
  return (char.codePointAt(0) ?? 0) >= SPACED_SCRIPT_START;
}

/** The keyword as the search sees it: NFKC-normalized, whitespace collapsed, trimmed and capped. */
export function normalizeKeyword(raw: string): string {
  return [...raw.normalize('NFKC').replace(/\s+/gu, ' ').trim()].slice(0, MAX_QUERY_CHARS).join('').trim();
}

/** Splits a keyword into words and CJK runs, dropping punctuation, as the index tokenizes. */
export function searchTerms(keyword: string): SearchTerm[] {
  return splitTerms(normalizeKeyword(keyword)).slice(0, MAX_QUERY_TERMS);
}

function splitTerms(text: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  let word = '';
  let cjk: string[] = [];
  const flushWord = () => {
    if (HAS_LETTER_OR_DIGIT.test(word)) terms.push({ kind: 'word', text: word.toLowerCase() });
    word = '';
  };
  const flushCjk = () => {
    const chars = cjk.filter((char) => HAS_LETTER_OR_DIGIT.test(char));
    if (chars.length > 0) terms.push({ kind: 'cjk', chars });
    cjk = [];
  };
  for (const char of text) {
    if (!TOKEN_CHAR.test(char)) {
      flushWord();
      flushCjk();
    } else if (isSpacedChar(char)) {
      flushWord();
      cjk.push(char);
    } else {
      flushCjk();
      word += char;
    }
  }
  flushWord();
  flushCjk();
  return terms;
}

/**
 * The FTS5 MATCH expression for a keyword, or null when nothing in it can match (empty, only
 * punctuation). Terms are ANDed; `loose` also splits CJK runs into single characters.
 */
export function ftsQuery(keyword: string, mode: MatchMode = 'phrase'): string | null {
  const parts = searchTerms(keyword).flatMap((term) => {
    if (term.kind === 'word') return [term.text.length >= MIN_PREFIX_LENGTH ? `"${term.text}"*` : `"${term.text}"`];
    return mode === 'phrase' ? [`"${term.chars.join(' ')}"`] : term.chars.map((char) => `"${char}"`);
  });
  return parts.length > 0 ? parts.join(' ') : null;
}

/** Whether the loose query could find more than the phrase query (some CJK run has 2+ characters). */
export function hasLooserMatch(keyword: string): boolean {
  return searchTerms(keyword).some((term) => term.kind === 'cjk' && term.chars.length > 1);
}

/** Unicode61's folding, for comparing in code: lower case without diacritics. */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The index's tokens of text already folded. */
function foldedTokens(folded: string): string[] {
  return splitTerms(folded).flatMap((term) => (term.kind === 'word' ? [term.text] : term.chars));
}

function tokens(text: string): string[] {
  return foldedTokens(fold(text));
}

/** Whether a column's tokens hold a term as the index matches it: a word as a token prefix (one letter as a whole token), a CJK run as consecutive characters. */
function termMatches(term: SearchTerm, haystack: readonly string[]): boolean {
  if (term.kind === 'word') {
    return haystack.some((token) => (term.text.length >= MIN_PREFIX_LENGTH ? token.startsWith(term.text) : token === term.text));
  }
  return haystack.some((_, start) => term.chars.every((char, offset) => haystack[start + offset] === char));
}

/**
 * Whether the index would match `keyword` against `text` alone (phrase mode), mirroring ftsQuery:
 * every word a token prefix, every CJK run consecutive characters. Used to say which name matched.
 */
export function textMatches(keyword: string, text: string): boolean {
  const haystack = tokens(text);
  const terms = searchTerms(fold(keyword));
  if (terms.length === 0) return false;
  return terms.every((term) => termMatches(term, haystack));
}

/**
 * Whether the index would match `keyword` (in `mode`, as ftsQuery's expression) against a document
 * whose columns hold these texts: every term in some column, a CJK run's characters consecutive
 * within one column, or each anywhere when loose.
 */
export function documentMatches(keyword: string, columns: readonly string[], mode: MatchMode): boolean {
  const terms = searchTerms(fold(keyword)).flatMap((term): SearchTerm[] =>
    term.kind === 'cjk' && mode === 'loose' ? term.chars.map((char) => ({ kind: 'cjk', chars: [char] })) : [term],
  );
  const folded = columns.map(fold);
  // A word's token prefix is in the folded text: a column without it need not be split into tokens.
  if (terms.some((term) => term.kind === 'word' && !folded.some((text) => text.includes(term.text)))) return false;
  const haystacks = folded.map(foldedTokens);
  return terms.length > 0 && terms.every((term) => haystacks.some((haystack) => termMatches(term, haystack)));
}

/**
 * The terms of the suggestion table (migration 0022) that cover a keyword: each word's MATCH
 * term, folded as the index folds it (`"kel"*`, a one-letter word `"k"`), and each character of a
 * CJK run (`"劉"`), without repeats. Every match of the keyword, in either mode, matches each of
 * them; a keyword that is one word or one CJK character matches exactly its one term's documents.
 */
export function suggestionTerms(keyword: string): string[] {
  const terms = searchTerms(fold(keyword)).flatMap((term) =>
    term.kind === 'word'
      ? [term.text.length >= MIN_PREFIX_LENGTH ? `"${term.text}"*` : `"${term.text}"`]
      : term.chars.map((char) => `"${char}"`),
  );
  return [...new Set(terms)];
}

/** Whether a keyword is a single word or a single CJK character: its matches are one suggestion term's. */
export function isSingleTerm(keyword: string): boolean {
  const terms = searchTerms(keyword);
  return terms.length === 1 && (terms[0]?.kind === 'word' || terms[0]?.chars.length === 1);
}

/**
 * Characters the bigram table of migration 0020 pairs: kana, Hangul syllables and the CJK
 * ideographs of Unicode 6.1, each a token of the index's tokenizer. The migration's view tests the
 * same ranges; a CJK run with any other character is matched by the main index alone.
 */
const BIGRAM_CHAR_RANGES: readonly (readonly [number, number])[] = [
  [0x3041, 0x3096],
  [0x30a1, 0x30fa],
  [0x3400, 0x4db5],
  [0x4e00, 0x9fcc],
  [0xac00, 0xd7a3],
  [0x20000, 0x2a6d6],
  [0x2a700, 0x2b734],
  [0x2b740, 0x2b81d],
];

function isBigramChar(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return BIGRAM_CHAR_RANGES.some(([low, high]) => code >= low && code <= high);
}

/**
 * The characters of a keyword that is one CJK run of two or more bigram characters (a name such
 * as 高靜文 typed alone), whose phrase the bigram table can find; null for any other keyword.
 */
export function bigramPhrase(keyword: string): string[] | null {
  const terms = searchTerms(keyword);
  const [term] = terms;
  if (terms.length !== 1 || term?.kind !== 'cjk' || term.chars.length < 2) return null;
  return term.chars.every(isBigramChar) ? term.chars : null;
}

/** The bigram table's MATCH expression for a phrase: every pair of consecutive characters. */
export function bigramQuery(chars: readonly string[]): string {
  return chars
    .slice(1)
    .map((char, index) => `"${chars[index]}${char}"`)
    .join(' ');
}

const INDEX_SEPARATORS = /[^\p{L}\p{N}\p{M}\p{Co}]+/u;

/**
 * How many times a phrase of CJK characters occurs in one column as the index holds it (every
 * such character already spaced into its own token): each run of consecutive tokens equal to the
 * phrase, overlapping ones included, as FTS5 counts phrase instances for bm25.
 */
export function phraseOccurrences(chars: readonly string[], indexedText: string): number {
  const tokens = indexedText.split(INDEX_SEPARATORS).filter((token) => token.length > 0);
  let occurrences = 0;
  for (let start = 0; start + chars.length <= tokens.length; start++) {
    if (chars.every((char, offset) => tokens[start + offset] === char)) occurrences++;
  }
  return occurrences;
}
