import { describe, expect, it } from 'vitest';
import { listingUrl, parseListingUrl, searchUrl, type ListingQuery } from '../../src/lib/domain/listing-url.ts';

const parse = (url: string) => {
  const parsed = new URL(url, 'http://x');
  return parseListingUrl(parsed.pathname, parsed.searchParams);
};

describe('parseListingUrl', () => {
  it('reads a category list with every filter', () => {
    expect(parse('/concerts?city=341&from=2026-12-01&to=2026-12-31&sort=price&page=3')).toEqual({
      invalid: false,
      query: { kind: 'category', category: 'concerts', cityId: 341, from: '2026-12-01', to: '2026-12-31', sort: 'price', page: 3 },
    });
  });

  it('reads a search keyword from the /s_ segment, decoded and trimmed', () => {
    expect(parse('/s_%E5%91%A8%E6%9D%B0%E5%80%AB%20?category=concerts')).toEqual({
      invalid: false,
      query: { kind: 'search', keyword: '周杰倫', category: 'concerts', placeholder: undefined, sort: 'relevance', page: 1 },
    });
    expect(parse('/concerts/s_jay')?.query).toMatchObject({ kind: 'search', keyword: 'jay' });
  });

  it('flags backwards ranges, impossible dates, bad pages and bad sorts but still parses', () => {
    expect(parse('/all?from=2026-12-31&to=2026-12-01')?.invalid).toBe(true);
    const impossible = parse('/all?from=2026-02-30');
    expect(impossible?.invalid).toBe(true);
    expect(impossible?.query.from).toBeUndefined();
    expect(parse('/all?page=0')?.invalid).toBe(true);
    expect(parse('/all?page=99999')?.invalid).toBe(true);
    expect(parse('/all?sort=random')).toMatchObject({ invalid: true, query: { sort: 'time' } });
    expect(parse('/s_%E0%A4%A')).toMatchObject({ invalid: true, query: { keyword: '' } });
  });

  it('reads city=all as every city, and no city as the current one', () => {
    expect(parse('/concerts?city=all')).toMatchObject({ invalid: false, query: { cityId: 'all' } });
    expect(parse('/s_jay?city=all')).toMatchObject({ invalid: false, query: { cityId: 'all' } });
    expect(parse('/concerts')?.query).not.toHaveProperty('cityId');
    expect(parse('/concerts?city=All')).toMatchObject({ invalid: true, problems: ['city'] });
  });

  it('names each unusable parameter in problems', () => {
    expect(parse('/all?city=abc&from=2026-13-01&to=2026-12-01&page=0')).toMatchObject({
      invalid: true,
      problems: ['city', 'from', 'page'],
    });
    expect(parse('/all?from=2026-12-31&to=2026-12-01')?.problems).toEqual(['range']);
    expect(parse('/s_x?category=Bad!')?.problems).toEqual(['category']);
    expect(parse('/s_%E0%A4%A')?.problems).toEqual(['keyword']);
    expect(parse('/all')).not.toHaveProperty('problems');
  });

  it('ranks a search by relevance by default, and a category list by time, where relevance is not a sort', () => {
    expect(parse('/s_jay')?.query.sort).toBe('relevance');
    expect(parse('/s_jay?sort=time')?.query.sort).toBe('time');
    expect(parse('/all')?.query.sort).toBe('time');
    expect(parse('/all?sort=relevance')).toMatchObject({ invalid: true, problems: ['sort'], query: { sort: 'time' } });
  });

  it('is not a listing for nested or odd paths', () => {
    expect(parse('/a/b')).toBeNull();
    expect(parse('/Concerts!')).toBeNull();
    expect(parse('/')).toBeNull();
  });
});

describe('listingUrl', () => {
  it('round-trips through parseListingUrl', () => {
    const queries: ListingQuery[] = [
      { kind: 'category', category: 'sports', cityId: 345, from: '2027-01-01', to: '2027-01-31', sort: 'hot', page: 2 },
      { kind: 'search', keyword: 'Jay Chou / 周杰伦 & co?', category: 'concerts', placeholder: 'Kelvin', sort: 'price', page: 1 },
      { kind: 'category', category: 'concerts', cityId: 'all', sort: 'time', page: 1 },
    ];
    for (const query of queries) expect(parse(listingUrl(query))).toEqual({ query, invalid: false });
  });

  it('omits defaults', () => {
    expect(listingUrl({ kind: 'category', category: 'all', sort: 'time', page: 1 })).toBe('/all');
    expect(listingUrl({ kind: 'category', category: 'all', cityId: 'all', sort: 'time', page: 1 })).toBe('/all?city=all');
    expect(searchUrl()).toBe('/s_');
    expect(searchUrl('', 'Eason')).toBe('/s_?placeholder=Eason');
    expect(searchUrl('jay')).toBe('/s_jay');
    expect(listingUrl({ kind: 'search', keyword: 'jay', sort: 'time', page: 1 })).toBe('/s_jay?sort=time');
  });
});
