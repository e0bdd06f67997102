import { describe, expect, it } from 'vitest';
import { TAKER_NAME_MAX_LENGTH } from '../../src/lib/config/orders.ts';
import { takerNameProblem } from '../../src/lib/domain/validation.ts';

describe('takerNameProblem (the name a pickup SMS carries)', () => {
  it('takes names in any script, with their marks, initials, hyphens, apostrophes and middle dots', () => {
    for (const name of [
      'Chan Tai Man',
      '陳大文',
      'Mary-Jane O’Neil',
      "D'Souza",
      'J. R. Chan',
      'Nguyễn Thị Minh Khai',
      'สมชาย ใจดี',
      '阿卜杜拉·艾力',
      'ジョン・スミス',
    ]) {
      expect(takerNameProblem(name), name).toBeNull();
    }
  });

  it('refuses a link, a host name, digits or other punctuation', () => {
    for (const text of ['Visit evil.com now', 'https://evil.example/x', 'bit.ly', 'Call 91234567', 'Chan <b>', 'Chan, win a prize!']) {
      expect(takerNameProblem(text), text).toBe('name_invalid');
    }
  });

  it('needs a name, no longer than the limit', () => {
    expect(takerNameProblem('   ')).toBe('name_required');
    expect(takerNameProblem('陳'.repeat(TAKER_NAME_MAX_LENGTH))).toBeNull();
    expect(takerNameProblem('陳'.repeat(TAKER_NAME_MAX_LENGTH + 1))).toBe('name_invalid');
  });
});
