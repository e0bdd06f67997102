/** Message keys the header islands receive, and the text of a failed call. */
import { ApiClientError } from '../../lib/api/client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';

const FAILURES = ['error.network', 'error.timeout'] as const;

/** Prefixes for messagesFor(): each island's own texts and the network failure texts. */
export const CITY_PICKER_MESSAGES = ['header.city.', 'header.geo.', ...FAILURES] as const;
export const PREFERENCES_MESSAGES = ['header.prefs.', ...FAILURES] as const;

/** The server's localized message for an answered call; the network or timeout text otherwise. */
export function failureText(cause: unknown, messages: Messages): string {
  if (cause instanceof ApiClientError && cause.kind === 'http') return cause.message;
  if (cause instanceof ApiClientError && cause.kind === 'timeout') return format(messages, 'error.timeout');
  return format(messages, 'error.network');
}
