import { describe, expect, it } from 'vitest';
import { PageMemory } from '../../src/lib/http/page-memory.ts';

describe('page memory', () => {
  it('answers what it keeps, and nothing for a key it never kept', () => {
    const memory = new PageMemory<string>(100);
    memory.set('home', 'home page', 10);
    expect(memory.get('home')).toBe('home page');
    expect(memory.get('about')).toBeUndefined();
  });

  it('lets the least recently used pages go once the bodies pass the budget', () => {
    const memory = new PageMemory<string>(30);
    memory.set('a', 'A', 10);
    memory.set('b', 'B', 10);
    memory.set('c', 'C', 10);
    // Reading a makes b the least recently used.
    expect(memory.get('a')).toBe('A');
    memory.set('d', 'D', 10);
    expect(memory.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((key) => memory.get(key))).toEqual(['A', 'C', 'D']);
    expect(memory.bytes).toBe(30);
  });

  it('replaces a page kept under the same key and counts its bytes once', () => {
    const memory = new PageMemory<string>(30);
    memory.set('a', 'old', 20);
    memory.set('a', 'new', 15);
    expect(memory.get('a')).toBe('new');
    expect(memory.bytes).toBe(15);
  });

  it('does not keep a page larger than the whole budget, nor push others out for it', () => {
    const memory = new PageMemory<string>(30);
    memory.set('a', 'A', 10);
    memory.set('huge', 'H', 31);
    expect(memory.get('huge')).toBeUndefined();
    expect(memory.get('a')).toBe('A');
  });

  it('forgets a deleted page and its bytes', () => {
    const memory = new PageMemory<string>(30);
    memory.set('a', 'A', 10);
    memory.delete('a');
    memory.delete('never');
    expect(memory.get('a')).toBeUndefined();
    expect(memory.bytes).toBe(0);
  });
});
