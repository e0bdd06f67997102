import { describe, expect, it } from 'vitest';
import { addressProblem, normalizeAddress, returnWithChoice, type AddressInput } from '../../src/lib/domain/address.ts';
import { isCountryCode } from '../../src/lib/domain/countries.ts';
import { isSelectableRegion, regionChoice, regionName, selectableLevel } from '../../src/lib/domain/regions.ts';

const hongKong: AddressInput = {
  name: 'Chan Tai Man',
  phoneCountryCode: '+852',
  phone: '91234567',
  countryCode: 'HK',
  province: '',
  city: '',
  district: 'WC',
  street: "1 Queen's Road East",
  postcode: '',
};
const problem = (change: Partial<AddressInput>) => addressProblem(normalizeAddress({ ...hongKong, ...change }), isCountryCode);

describe('addressProblem', () => {
  it('passes a Hong Kong address with a district and a free-text foreign one', () => {
    expect(problem({})).toBeNull();
    expect(problem({ countryCode: 'JP', district: '', province: 'Tokyo', city: 'Shibuya', postcode: '150-0002' })).toBeNull();
    expect(problem({ countryCode: 'JP', district: '' })).toBeNull();
  });
  it("answers each of the spec's messages for its field", () => {
    expect(problem({ name: '', phone: '', street: '' })).toEqual({ field: 'name', problem: 'required_info_empty' });
    expect(problem({ name: ' ' })).toEqual({ field: 'name', problem: 'name_required' });
    expect(problem({ phone: '' })).toEqual({ field: 'phone', problem: 'phone_required' });
    expect(problem({ phone: '12ab' })).toEqual({ field: 'phone', problem: 'phone_malformed' });
    expect(problem({ phone: '123456' })).toEqual({ field: 'phone', problem: 'phone_malformed' });
    expect(problem({ phoneCountryCode: '852' })).toEqual({ field: 'phoneCountryCode', problem: 'country_code_invalid' });
    expect(problem({ countryCode: 'ZZ' })).toEqual({ field: 'countryCode', problem: 'country_required' });
    expect(problem({ district: '' })).toEqual({ field: 'district', problem: 'area_required' });
    expect(problem({ district: 'Mong Kok' })).toEqual({ field: 'district', problem: 'area_required' });
    expect(problem({ countryCode: 'CN', district: '' })).toEqual({ field: 'province', problem: 'area_required' });
    expect(problem({ street: '  ' })).toEqual({ field: 'street', problem: 'street_required' });
    expect(problem({ postcode: '#1' })).toEqual({ field: 'postcode', problem: 'postcode_invalid' });
  });
  it('reuses the account phone rule: a dash-separated prefix, then 7 to 11 digits', () => {
    expect(problem({ phone: '852-91234567' })).toBeNull();
    expect(problem({ phone: '123456789012' })).toEqual({ field: 'phone', problem: 'phone_malformed' });
  });
});

describe('regions', () => {
  it('offers the 18 Hong Kong districts, Macao parishes, Taiwan cities and Mainland provinces, localized', () => {
    expect(regionChoice('HK', 'en')?.options).toHaveLength(18);
    expect(regionChoice('HK', 'en')).toMatchObject({
      level: 'district',
      options: expect.arrayContaining([{ code: 'WC', name: 'Wan Chai' }]),
    });
    expect(regionName('HK', 'WC', 'zh-HK')).toBe('灣仔區');
    expect(regionName('HK', 'WC', 'zh-CN')).toBe('湾仔区');
    expect(selectableLevel('CN')).toBe('province');
    expect(regionChoice('CN', 'en')!.options.length).toBeGreaterThanOrEqual(31);
    expect(selectableLevel('TW')).toBe('city');
    expect(selectableLevel('MO')).toBe('district');
  });
  it('leaves other countries to free text', () => {
    expect(regionChoice('JP', 'en')).toBeNull();
    expect(isSelectableRegion('JP', 'anything')).toBe(true);
    expect(regionName('JP', 'Tokyo', 'en')).toBe('Tokyo');
  });
});

describe('returnWithChoice', () => {
  it('adds the choice to a same-site path, replacing an older one', () => {
    expect(returnWithChoice('/en/order/confirm?listingId=3&addressId=1', { addressId: '9' })).toBe(
      '/en/order/confirm?listingId=3&addressId=9',
    );
    expect(returnWithChoice('/order/confirm', { attendeeIds: '1,2' })).toBe('/order/confirm?attendeeIds=1%2C2');
  });
  it('refuses another site', () => {
    expect(returnWithChoice('https://evil.example/x', { addressId: '1' })).toBeNull();
    expect(returnWithChoice('//evil.example/x', { addressId: '1' })).toBeNull();
    expect(returnWithChoice(null, { addressId: '1' })).toBeNull();
  });
});
