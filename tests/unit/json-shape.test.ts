import { describe, expect, it } from 'vitest';
import { jsonWithinLimits } from '../../src/lib/domain/json-shape.ts';

const limits = { maxDepth: 3, maxKeys: 2 };

describe('jsonWithinLimits', () => {
  it('takes a body within the depth and the key count', () => {
    expect(jsonWithinLimits('{"a":[{"b":1}]}', limits)).toBe(true);
    expect(jsonWithinLimits('[[[]],[[]],[[]]]', limits)).toBe(true);
  });

  it('refuses nesting one level deeper than the limit', () => {
    expect(jsonWithinLimits('[[[[]]]]', limits)).toBe(false);
    expect(jsonWithinLimits(`{"a":${'['.repeat(15_000)}${']'.repeat(15_000)}}`, limits)).toBe(false);
  });

  it('refuses more object keys than the limit, at any depth', () => {
    expect(jsonWithinLimits('{"a":1,"b":{"c":2}}', limits)).toBe(false);
  });

  it('does not count brackets, colons or escaped quotes inside strings', () => {
    expect(jsonWithinLimits('{"a":"[[[[{:::}]]]] \\" [[[["}', limits)).toBe(true);
  });
});
