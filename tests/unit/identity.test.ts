import { describe, expect, it } from 'vitest';
import { isCountryCode } from '../../src/lib/domain/countries.ts';
import {
  attendeeProblem,
  attendeeSelectionStatus,
  idCardTypeFor,
  isHongKongId,
  isMacaoId,
  isMainlandId,
  isTaiwanId,
  isValidIdNumber,
  maskIdNumber,
  normalizeIdNumber,
} from '../../src/lib/domain/identity.ts';

describe('idCardTypeFor', () => {
  it("is an ID card when the venue is in the attendee's country, a passport otherwise", () => {
    expect(idCardTypeFor('HK', 'HK')).toBe('id_card');
    expect(idCardTypeFor('hk', 'HK')).toBe('id_card');
    expect(idCardTypeFor('HK', 'CN')).toBe('passport');
    expect(idCardTypeFor('TW', 'JP')).toBe('passport');
  });
});

describe('Mainland resident ID (ISO 7064 MOD 11-2)', () => {
  it('accepts real check digits, X included', () => {
    expect(isMainlandId('11010519491231002X')).toBe(true);
    expect(isMainlandId('440524188001010014')).toBe(true);
  });
  it('refuses a wrong check digit, a wrong length and letters', () => {
    expect(isMainlandId('110105194912310021')).toBe(false);
    expect(isMainlandId('440524188001010015')).toBe(false);
    expect(isMainlandId('44052418800101001')).toBe(false);
    expect(isMainlandId('4405241880010100A4')).toBe(false);
  });
});

describe('Hong Kong identity card', () => {
  it('accepts one or two letters, with or without parentheses, and the check digit A', () => {
    expect(isHongKongId('A123456(3)')).toBe(true);
    expect(isHongKongId('A1234563')).toBe(true);
    // G123456: 9*36 + 8*16 + 77 = 529, mod 11 = 1, 11 - 1 = 10 → A.
    expect(isHongKongId('G123456(A)')).toBe(true);
    // AB987654: 9*10 + 8*11 + 193 = 371, mod 11 = 8, check 3.
    expect(isHongKongId('AB987654(3)')).toBe(true);
    expect(isHongKongId('AB9876543')).toBe(true);
    expect(isHongKongId('AB987654(2)')).toBe(false);
  });
  it('computes the check digit, including A for 10', () => {
    // A123456: 9*36 + 8*10 + 77 = 481, 481 mod 11 = 8, 11 - 8 = 3.
    expect(isHongKongId('A123456(4)')).toBe(false);
    // Z683365: 9*36 + 8*35 + (6*7+8*6+3*5+3*4+6*3+5*2 = 145) = 749, mod 11 = 1, 11 - 1 = 10 → A.
    expect(isHongKongId('Z683365(A)')).toBe(true);
    expect(isHongKongId('Z683365(5)')).toBe(false);
    // XA000000: 9*33 + 8*10 = 377, mod 11 = 3, check 8.
    expect(isHongKongId('XA000000(8)')).toBe(true);
    expect(isHongKongId('XA0000008')).toBe(true);
  });
  it('refuses malformed numbers', () => {
    expect(isHongKongId('A12345(6)')).toBe(false);
    expect(isHongKongId('ABC123456(3)')).toBe(false);
    expect(isHongKongId('A123456(3')).toBe(false);
  });
});

describe('Taiwan national ID', () => {
  it('accepts a valid checksum and refuses a wrong one', () => {
    expect(isTaiwanId('A123456789')).toBe(true);
    expect(isTaiwanId('A123456788')).toBe(false);
    // F = 15: 1 + 5*9 = 46; 1*8+3*7+1*6+2*5+3*4+4*3+5*2+6*1 = 85; 46 + 85 = 131, so the last digit is 9.
    expect(isTaiwanId('F131234569')).toBe(true);
    expect(isTaiwanId('A323456789')).toBe(false);
    expect(isTaiwanId('A12345678')).toBe(false);
  });
});

describe('Macao identity card', () => {
  it('takes 8 digits, the last optionally in parentheses', () => {
    expect(isMacaoId('1234567(8)')).toBe(true);
    expect(isMacaoId('12345678')).toBe(true);
    expect(isMacaoId('1234567(')).toBe(false);
    expect(isMacaoId('123456789')).toBe(false);
  });
});

describe('isValidIdNumber', () => {
  it('checks ID cards by nationality and passports and other cards by 5-20 letters or digits', () => {
    expect(isValidIdNumber('id_card', 'HK', 'A123456(3)')).toBe(true);
    expect(isValidIdNumber('id_card', 'CN', 'A123456(3)')).toBe(false);
    expect(isValidIdNumber('id_card', 'JP', 'AB12345')).toBe(true);
    expect(isValidIdNumber('id_card', 'JP', 'AB12')).toBe(false);
    expect(isValidIdNumber('passport', 'HK', 'K12345678')).toBe(true);
    expect(isValidIdNumber('passport', 'HK', 'A123456(3)')).toBe(false);
    expect(isValidIdNumber('passport', 'US', 'X'.repeat(21))).toBe(false);
  });
});

describe('maskIdNumber and normalizeIdNumber', () => {
  it('shows the first and last two characters only', () => {
    expect(maskIdNumber('A123456(3)')).toBe('A1******3)');
    expect(maskIdNumber('1234')).toBe('****');
  });
  it('drops spaces and upper-cases', () => {
    expect(normalizeIdNumber(' a123 456(3) ')).toBe('A123456(3)');
  });
});

describe('attendeeProblem', () => {
  const valid = { name: 'Chan Tai Man', nationality: 'HK', idCardType: 'id_card', idCardNo: 'a123456(3)' };
  const problem = (change: Partial<typeof valid>) => attendeeProblem({ ...valid, ...change }, isCountryCode);
  it('passes a valid attendee', () => expect(problem({})).toBeNull());
  it('names the first problem and its field', () => {
    expect(problem({ name: '', nationality: '', idCardNo: '' })).toEqual({ field: 'name', problem: 'required_info_empty' });
    expect(problem({ name: '  ' })).toEqual({ field: 'name', problem: 'name_required' });
    expect(problem({ name: 'x'.repeat(51) })).toEqual({ field: 'name', problem: 'name_invalid' });
    expect(problem({ nationality: 'XX' })).toEqual({ field: 'nationality', problem: 'nationality_required' });
    expect(problem({ idCardType: 'licence' })).toEqual({ field: 'idCardType', problem: 'id_type_required' });
    expect(problem({ idCardNo: ' ' })).toEqual({ field: 'idCardNo', problem: 'id_number_required' });
    expect(problem({ idCardNo: 'A123456(4)' })).toEqual({ field: 'idCardNo', problem: 'id_number_invalid' });
  });
});

describe('attendeeSelectionStatus', () => {
  it('asks to add attendees first, then to choose the rest, then is complete', () => {
    expect(attendeeSelectionStatus(1, 0, 3)).toEqual({ key: 'toAdd', count: 2 });
    expect(attendeeSelectionStatus(4, 1, 3)).toEqual({ key: 'remain', count: 2 });
    expect(attendeeSelectionStatus(4, 3, 3)).toEqual({ key: 'complete', count: 3 });
  });
});
