/** Message keys the account islands receive, and which failures ask for a captcha. */
import { ApiClientError } from '../../lib/browser/api-client.ts';
import { NETWORK_MESSAGE_PREFIXES } from '../shared/messages.ts';

/** The field and account errors the forms show themselves, and the network texts. */
const ERROR_PREFIXES = [
  'error.phone_',
  'error.country_code_',
  'error.email_',
  'error.password_',
  'error.new_password_',
  'error.code_',
  'error.captcha_',
  'error.nickname_',
  'error.agreement_',
  ...NETWORK_MESSAGE_PREFIXES,
] as const;

/** Prefixes for messagesFor() on the login page. */
export const LOGIN_MESSAGE_PREFIXES = ['auth.form.', 'common.opensInNewTab', ...ERROR_PREFIXES] as const;

/** Prefixes for messagesFor() on the account settings page (its forms and the logout control). */
export const SETTINGS_MESSAGE_PREFIXES = ['auth.settings.', 'auth.logout', ...ERROR_PREFIXES] as const;

/** The logout control's texts only (it sits in the header's account menu). */
export const LOGOUT_MESSAGE_PREFIXES = ['auth.logout', ...NETWORK_MESSAGE_PREFIXES] as const;

/** Whether a failed call asks for (another) graphic captcha. */
export function wantsCaptcha(cause: unknown): boolean {
  return cause instanceof ApiClientError && (cause.errorCode === 'captcha_required' || cause.errorCode === 'captcha_wrong');
}
