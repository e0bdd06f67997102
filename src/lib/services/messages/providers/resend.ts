/**
 * Email through Resend's HTTP API (https://resend.com/docs/api-reference/emails/send-email):
 * POST /emails with a bearer key, a User-Agent (Resend refuses requests without one) and our message
 * id as the Idempotency-Key, so a retry within Resend's 24 hours answers the first email's id
 * instead of sending a second one. Errors are JSON `{statusCode, name, message}`.
 */
import type { OutgoingMessage } from '../../../domain/messages.ts';
import { callProvider, DeliveryError, errorBody, type Fetcher, isTransientStatus, type MessageProvider } from './types.ts';

export const RESEND_API_URL = 'https://api.resend.com';

export interface ResendConfig {
  apiKey: string;
  /** The sender, e.g. "Tickets <tickets@example.com>", on a domain verified with Resend. */
  from: string;
  /** Another address for the API (the tests' double). */
  apiUrl?: string;
}

/**
 * Resend's 409s differ: `concurrent_idempotent_requests` (the first copy is still being sent) is
 * worth retrying, `invalid_idempotent_request` (the key was used with another body) never is.
 */
function isTransient(status: number, name: unknown): boolean {
  return isTransientStatus(status) || (status === 409 && name === 'concurrent_idempotent_requests');
}

export function resendProvider(config: ResendConfig, fetcher: Fetcher): MessageProvider {
  const url = `${(config.apiUrl || RESEND_API_URL).replace(/\/$/, '')}/emails`;
  return {
    async deliver(message: OutgoingMessage) {
      const response = await callProvider('Resend', fetcher, url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${config.apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': message.id,
          'user-agent': 'tickets-worker/1.0',
        },
        body: JSON.stringify({
          from: config.from,
          to: [message.to],
          subject: message.subject,
          text: message.text,
          ...(message.html === null ? {} : { html: message.html }),
        }),
      });
      if (response.ok) return;
      const body = await errorBody(response);
      throw new DeliveryError(
        `Resend refused message ${message.id}: HTTP ${response.status} ${String(body.name ?? '')} ${String(body.message ?? '')}`.trim(),
        !isTransient(response.status, body.name),
      );
    },
  };
}
