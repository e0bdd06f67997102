import { describe, expect, it } from 'vitest';
import {
  callingCodeProblem,
  captchaProblem,
  codeProblem,
  emailProblem,
  nicknameProblem,
  normalizeEmail,
  normalizePhone,
  passwordProblem,
  phoneProblem,
  safeRedirect,
} from '../../src/lib/domain/validation.ts';
import { translator } from '../../src/lib/i18n/index.ts';

describe('email (SPEC.md section 5: local part, @, domain with a 2-6 letter suffix)', () => {
  it('accepts ordinary addresses, ignoring surrounding spaces', () => {
    for (const email of ['a@b.co', 'first.last+tag@mail.example.com', ' fan@tickets.travel ', 'x_y-z@sub.domain.hk']) {
      expect(emailProblem(email), email).toBeNull();
    }
  });

  it('refuses what is not an address, and says when it is empty', () => {
    expect(emailProblem('')).toBe('email_required');
    expect(emailProblem('   ')).toBe('email_required');
    for (const email of [
      'plain',
      'a@b',
      'a@b.c',
      'a@b.abcdefg',
      'a@@b.com',
      'a b@c.com',
      '@b.com',
      'a@-b.com',
      'a@b.c0m',
      `${'a'.repeat(250)}@b.com`,
    ]) {
      expect(emailProblem(email), email).toBe('email_invalid');
    }
  });
});

describe('phone (optional dash-separated prefix, then 7 to 11 digits)', () => {
  it('accepts 7 to 11 digits with or without a prefix', () => {
    for (const phone of ['9123456', '91234567', '13812345678', '852-91234567', '0-1234567']) expect(phoneProblem(phone), phone).toBeNull();
  });

  it('refuses other shapes', () => {
    expect(phoneProblem('')).toBe('phone_required');
    for (const phone of ['123456', '123456789012', '9123 4567', '+85291234567', '852-', '-91234567', '12345-91234567', '9123456a']) {
      expect(phoneProblem(phone), phone).toBe('phone_invalid');
    }
  });

  it('checks calling codes as a plus and 1 to 4 digits', () => {
    expect(callingCodeProblem('+852')).toBeNull();
    expect(callingCodeProblem('+1')).toBeNull();
    for (const code of ['852', '+', '+12345', '', '+8a']) expect(callingCodeProblem(code), code).toBe('country_code_invalid');
  });

  it('spells one phone one way: a prefix equal to the calling code is dropped, another stays', () => {
    expect(normalizePhone('+852', ' 91234567 ')).toEqual({ callingCode: '+852', number: '91234567' });
    expect(normalizePhone('+852', '852-91234567')).toEqual({ callingCode: '+852', number: '91234567' });
    expect(normalizePhone('+886', '02-12345678')).toEqual({ callingCode: '+886', number: '02-12345678' });
  });
});

describe('password (8 to 32 characters with a letter and a digit)', () => {
  it('accepts passwords within the rules', () => {
    for (const password of ['abcdefg1', 'A1234567', `a1${'x'.repeat(30)}`, 'pass word 12', '密碼abc12345']) {
      expect(passwordProblem(password), password).toBeNull();
    }
  });

  it('refuses the rest, with the new-password message when asked', () => {
    expect(passwordProblem('')).toBe('password_required');
    expect(passwordProblem('', true)).toBe('new_password_required');
    for (const password of ['abc1234', `a1${'x'.repeat(31)}`, 'abcdefgh', '12345678', 'abcdefg1\u0000', '!!!!!!!!']) {
      expect(passwordProblem(password), JSON.stringify(password)).toBe('password_invalid');
    }
  });
});

describe('codes, captcha and nickname', () => {
  it('wants exactly 6 digits for a code', () => {
    expect(codeProblem('123456')).toBeNull();
    expect(codeProblem(' 123456 ')).toBeNull();
    expect(codeProblem('')).toBe('code_required');
    for (const code of ['12345', '1234567', '12345a', '１２３４５６']) expect(codeProblem(code), code).toBe('code_invalid');
  });

  it('wants a captcha answer when one is shown', () => {
    expect(captchaProblem(' ')).toBe('captcha_required');
    expect(captchaProblem('AB3D')).toBeNull();
  });

  it('wants a nickname of 1 to 30 visible characters', () => {
    expect(nicknameProblem('票迷 Fan')).toBeNull();
    expect(nicknameProblem('  ')).toBe('nickname_required');
    expect(nicknameProblem('x'.repeat(31))).toBe('nickname_invalid');
    expect(nicknameProblem('evil\u202Egnp')).toBe('nickname_invalid');
  });
});

describe('messages', () => {
  it('are the spec texts in English and translated in Chinese', () => {
    const en = translator('en');
    expect(en('error.code_invalid')).toBe('Incorrect verification code format!');
    expect(en('error.phone_invalid')).toBe('Please enter a valid phone number');
    expect(en('error.email_invalid')).toBe('Please enter a valid email address');
    expect(en('error.password_invalid')).toBe('Password does not meet the requirements');
    expect(en('auth.form.loginFailed')).toBe('Login failed!');
    expect(en('auth.form.registerFailed')).toBe('Registration failed!');
    expect(en('auth.form.resetFailed')).toBe('Failed to set new password');
    expect(en('auth.settings.changeFailed')).toBe('Failed to change password!');
    expect(en('auth.form.codeSent')).toBe('Verification code was sent');
    expect(translator('zh-HK')('error.code_invalid')).toBe('驗證碼格式不正確！');
    expect(translator('zh-CN')('error.code_invalid')).toBe('验证码格式不正确！');
  });
});

describe('normalizeEmail and safeRedirect', () => {
  it('lowercases and trims emails', () => {
    expect(normalizeEmail('  Fan@Example.COM ')).toBe('fan@example.com');
  });

  it('keeps only same-site paths as a redirect target', () => {
    expect(safeRedirect('/zh-HK/orders?tab=2')).toBe('/zh-HK/orders?tab=2');
    for (const target of [null, '', 'https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)', '/a\nb']) {
      expect(safeRedirect(target), String(target)).toBeNull();
    }
  });
});
