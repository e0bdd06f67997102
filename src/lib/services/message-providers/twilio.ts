/**
 * SMS through Twilio's Programmable Messaging API
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth with the account SID and
 * auth token, a form body of To (E.164), Body, and From or MessagingServiceSid; 201 answers the
 * message with its `sid`. Errors are JSON `{code, message, more_info, status}`.
 *
 * Twilio's Messages API takes no idempotency key, so a retry after an answer that was lost can
 * send the SMS twice; delivery is at least once (DESIGN.md, Messages).
 */
import type { OutgoingMessage } from '../../domain/messages.ts';
import { callProvider, DeliveryError, errorBody, type Fetcher, isTransientStatus, type MessageProvider } from './types.ts';

export const TWILIO_API_URL = 'https://api.twilio.com';

/** Twilio's error 21611: the sender's queue is full, a 400 that clears as the queue drains. */
const QUEUE_FULL = 21611;

export interface TwilioConfig {
  accountSid: string;
  authToken: string;
  /** The sending number or alphanumeric sender id; ignored when a Messaging Service is given. */
  from?: string;
  messagingServiceSid?: string;
  /** Another address for the API (the tests' double). */
  apiUrl?: string;
}

/** "+852 91234567" (how we store phones) as E.164, "+85291234567"; null when it cannot be one. */
export function e164(phone: string): string | null {
  const compact = phone.replace(/[\s\-().]/g, '');
  return /^\+[1-9]\d{6,14}$/.test(compact) ? compact : null;
}

export function twilioProvider(config: TwilioConfig, fetcher: Fetcher): MessageProvider {
  const base = (config.apiUrl || TWILIO_API_URL).replace(/\/$/, '');
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.accountSid)}/Messages.json`;
  const authorization = `Basic ${btoa(`${config.accountSid}:${config.authToken}`)}`;
  return {
    async deliver(message: OutgoingMessage) {
      const to = e164(message.to);
      if (!to) throw new DeliveryError(`Twilio cannot send message ${message.id}: "${message.to}" is not a phone number`, true);
      const form = new URLSearchParams({ To: to, Body: message.text });
      if (config.messagingServiceSid) form.set('MessagingServiceSid', config.messagingServiceSid);
      else if (config.from) form.set('From', config.from);
      const response = await callProvider('Twilio', fetcher, url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: form.toString(),
      });
      if (response.ok) return;
      const body = await errorBody(response);
      throw new DeliveryError(
        `Twilio refused message ${message.id}: HTTP ${response.status} ${String(body.code ?? '')} ${String(body.message ?? '')}`.trim(),
        !(isTransientStatus(response.status) || body.code === QUEUE_FULL),
      );
    },
  };
}
