/**
 * SMS through Twilio's Programmable Messaging API
 * (https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource):
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth with the account SID and
 * auth token, a form body of To (E.164), Body, and From or MessagingServiceSid; 201 answers the
 * message with its `sid`. Errors are JSON `{code, message, more_info, status}`.
 *
 * Twilio's Messages API takes no idempotency key, so a retry first lists the messages to the same
 * number (GET on the same path with `To`, newest first) and sends nothing when one with the same
 * text was created since the message was written: an earlier attempt whose answer was lost.
 */
import type { OutgoingMessage } from '../../../domain/messages.ts';
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

/** How far Twilio's clock may lead ours when comparing a listed message's `date_created`. */
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** How many of the number's latest messages a retry looks through for its earlier copy. */
const RECENT_MESSAGES = 50;

interface ListedMessage {
  body?: unknown;
  direction?: unknown;
  status?: unknown;
  date_created?: unknown;
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

  /** Whether Twilio already took this text for this number since `since`; a failed lookup is retried later, never guessed. */
  async function alreadySent(message: OutgoingMessage, to: string, since: number): Promise<boolean> {
    const query = new URLSearchParams({ To: to, PageSize: String(RECENT_MESSAGES) });
    const response = await callProvider('Twilio', fetcher, `${url}?${query}`, {
      method: 'GET',
      headers: { authorization, accept: 'application/json' },
    });
    if (!response.ok) {
      const body = await errorBody(response);
      throw new DeliveryError(
        `Twilio could not list earlier copies of message ${message.id}: HTTP ${response.status} ${String(body.code ?? '')}`.trim(),
        false,
      );
    }
    const page = (await response.json().catch(() => null)) as { messages?: ListedMessage[] } | null;
    return (page?.messages ?? []).some(
      (listed) =>
        listed.body === message.text &&
        String(listed.direction).startsWith('outbound') &&
        listed.status !== 'failed' &&
        listed.status !== 'undelivered' &&
        Date.parse(String(listed.date_created)) >= since - CLOCK_SKEW_MS,
    );
  }

  return {
    async deliver(message: OutgoingMessage) {
      const to = e164(message.to);
      if (!to) throw new DeliveryError(`Twilio cannot send message ${message.id}: "${message.to}" is not a phone number`, true);
      if (message.retrySince !== undefined && (await alreadySent(message, to, message.retrySince))) return;
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
