/** The login form's API calls, by what the form shows: which code to send, and how to sign in, register or reset. */
import { api, unwrap } from '../../lib/browser/api-client.ts';

export type Tab = 'phone' | 'email';
export type View = 'login' | 'register' | 'forgot';
export type Method = 'code' | 'password';
export type ResetStep = 'verify' | 'password';

export interface Values {
  countryCode: string;
  phone: string;
  email: string;
  code: string;
  password: string;
  captcha: string;
  agreement: boolean;
}

/** What the form shows: the view, the channel (the tab, for login), the reset's step and whether login is by code. */
export interface FormState {
  view: View;
  channel: Tab;
  resetStep: ResetStep;
  usesCode: boolean;
}

/** Asks for a code: registration's and reset's by email, login's to the phone or the email; the token answers a challenge. */
export function sendCode({ view, channel }: FormState, values: Values, turnstileToken: string | undefined) {
  if (view === 'register') return unwrap(api.v1.user.mail.regVerify.$post({ json: { email: values.email, turnstileToken } }));
  if (view === 'forgot') return unwrap(api.v1.user.mail.forgot.$post({ json: { email: values.email } }));
  const to =
    channel === 'phone'
      ? { channel: 'phone' as const, countryCode: values.countryCode, phone: values.phone, turnstileToken }
      : { channel: 'email' as const, email: values.email, turnstileToken };
  return unwrap(api.v3.user.sendLoginCode.$post({ json: to }));
}

/**
 * Submits the form: a reset's step (null, nobody signs in), or the registration or login, which
 * answers the signed-in user. The captcha goes along once asked for; the invite code with the calls
 * that may create the account.
 */
export async function signIn(
  { view, channel, resetStep, usesCode }: FormState,
  values: Values,
  captcha: string | undefined,
  invite: string | undefined,
) {
  if (view === 'forgot') {
    if (resetStep === 'verify') {
      await unwrap(api.v1.user.mail.verify.$post({ json: { email: values.email, code: values.code, captcha } }));
    } else {
      await unwrap(
        api.v1.user.mail.password.$post({ json: { email: values.email, code: values.code, password: values.password, captcha } }),
      );
    }
    return null;
  }
  if (view === 'register') {
    const account = { email: values.email, code: values.code, password: values.password, agreement: true, captcha, inviteCode: invite };
    return unwrap(api.v1.user.mail.register.$post({ json: account }));
  }
  const secret = usesCode
    ? { loginType: 'code' as const, code: values.code }
    : { loginType: 'password' as const, password: values.password };
  if (channel === 'phone') {
    const phone = { countryCode: values.countryCode, phone: values.phone, agreement: true, captcha };
    return unwrap(
      api.v1.user.login.$post({
        json: secret.loginType === 'code' ? { ...phone, ...secret, inviteCode: invite } : { ...phone, ...secret },
      }),
    );
  }
  return unwrap(api.v1.user.mail.login.$post({ json: { email: values.email, ...secret, captcha } }));
}
