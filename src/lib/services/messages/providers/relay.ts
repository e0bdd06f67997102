/**
 * Delivery through our own HTTP relay (a mail/SMS gateway, or a small function in front of one):
 * POST {id, channel, to, subject, text, html} as JSON with a bearer token. The message id is sent
 * in the body and as the Idempotency-Key header, so the relay can drop a retried copy.
 */
import type { OutgoingMessage } from '../../../domain/messages.ts';
import { callProvider, DeliveryError, type Fetcher, isTransientStatus, type MessageProvider } from './types.ts';

export interface RelayConfig {
  url: string;
  token?: string;
}

export function relayProvider(config: RelayConfig, fetcher: Fetcher): MessageProvider {
  return {
    async deliver(message: OutgoingMessage) {
      const headers: Record<string, string> = { 'content-type': 'application/json', 'idempotency-key': message.id };
      if (config.token) headers.authorization = `Bearer ${config.token}`;
      const { id, channel, to, subject, text, html } = message;
      const response = await callProvider('Messaging relay', fetcher, config.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ id, channel, to, subject, text, html }),
      });
      if (response.ok) return;
      // The relay is ours and answers plain HTTP: any other 4xx is a request it will never take.
      throw new DeliveryError(
        `Messaging relay refused ${channel} message ${id} (HTTP ${response.status})`,
        !isTransientStatus(response.status),
      );
    },
  };
}
