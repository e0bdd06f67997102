/** How a failed API call reads on an island: the server's localized message, or the network or timeout text. */
import { ApiClientError } from '../../lib/browser/api-client.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';

/** The message prefixes every island that calls the API needs for a failure without an answer. */
export const NETWORK_MESSAGE_PREFIXES = ['error.network', 'error.timeout'] as const;

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
