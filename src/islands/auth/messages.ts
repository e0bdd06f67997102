/** Message keys the account islands receive, and how a failed call reads. */
import { ApiClientError } from '../../lib/api/client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';

/** The field and account errors the forms show themselves, and the network texts. */
const ERROR_PREFIXES = [
  'error.phone_', 'error.country_code_', 'error.email_', 'error.password_', 'error.new_password_', 'error.code_',
  'error.captcha_', 'error.nickname_', 'error.agreement_', 'error.network', 'error.timeout',
] as const;

/** Prefixes for messagesFor() on the login page. */
export const LOGIN_MESSAGE_PREFIXES = ['auth.form.', 'common.opensInNewTab', ...ERROR_PREFIXES] as const;

/** Prefixes for messagesFor() on the account settings page (its forms and the logout control). */
export const SETTINGS_MESSAGE_PREFIXES = ['auth.settings.', 'auth.logout', ...ERROR_PREFIXES] as const;

/** The logout control's texts only (it sits in the header's account menu). */
export const LOGOUT_MESSAGE_PREFIXES = ['auth.logout', 'error.network', 'error.timeout'] as const;

/** The server's localized message for an answered call; the network or timeout text otherwise. */
export function failureText(cause: unknown, messages: Messages): string {
  if (cause instanceof ApiClientError && cause.kind === 'http') return cause.message;
  if (cause instanceof ApiClientError && cause.kind === 'timeout') return format(messages, 'error.timeout');
  return format(messages, 'error.network');
}

/** The field a failed call names (`code`, `password`...), when it names one. */
export function failedField(cause: unknown): string | null {
  return cause instanceof ApiClientError ? cause.field : null;
}

/** Whether a failed call asks for (another) graphic captcha. */
export function wantsCaptcha(cause: unknown): boolean {
  return cause instanceof ApiClientError && (cause.errorCode === 'captcha_required' || cause.errorCode === 'captcha_wrong');
}
