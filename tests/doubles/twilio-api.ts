/**
 * A local double of the part of Twilio's Programmable Messaging API our adapter calls, answering
 * as Twilio's reference describes (https://www.twilio.com/docs/messaging/api/message-resource):
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json with HTTP Basic auth (account SID and auth
 * token) and a form-encoded body of To (E.164), Body, and From or MessagingServiceSid; 201 answers
 * the Message resource. GET on the same path lists the account's messages newest first, filtered
 * by `To` and cut to `PageSize` (default 50), as `{messages: [...], page, page_size, ...}`. Errors
 * are JSON `{code, message, more_info, status}` with Twilio's error codes. It records every request
 * and every message sent, and can be told to fail the next calls, or to take a message and lose
 * the answer (a timeout after Twilio accepted it).
 */
import { randomBytes } from 'node:crypto';

export interface TwilioRequest {
  method: string;
  path: string;
  headers: Headers;
  params: URLSearchParams;
}

export interface TwilioMessage {
  sid: string;
  to: string;
  from: string | null;
  messagingServiceSid: string | null;
  body: string;
  /** RFC 2822, as Twilio writes dates. */
  dateCreated: string;
}

export interface TwilioAccount {
  accountSid: string;
  authToken: string;
  /** The account's SMS-capable number. */
  from: string;
  messagingServiceSid: string;
}

export interface TwilioDouble {
  readonly account: TwilioAccount;
  readonly requests: TwilioRequest[];
  readonly messages: TwilioMessage[];
  /** Numbers that look valid but that Twilio cannot reach (error 21211). */
  readonly unreachable: Set<string>;
  handle(request: Request): Promise<Response>;
  /** The double as a fetch function, for an adapter's `fetcher`. */
  fetch(url: string, init: RequestInit): Promise<Response>;
  /** The next `count` calls answer `status` with the error Twilio documents for it. */
  failNext(count: number, status: 429 | 500 | 503): void;
  /** The next message sent is taken, but its caller sees a network failure instead of the answer. */
  loseNextAnswer(): void;
}

const INJECTED: Record<number, { code: number; message: string }> = {
  429: { code: 20429, message: 'Too Many Requests' },
  500: { code: 20500, message: 'Internal Server Error' },
  503: { code: 20503, message: 'Service Unavailable' },
};

const E164 = /^\+[1-9]\d{1,14}$/;
const MAX_BODY = 1600;
const MESSAGES_PATH = /^\/2010-04-01\/Accounts\/([^/]+)\/Messages\.json$/;

function error(status: number, code: number, message: string): Response {
  return Response.json({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }, { status });
}

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

const rfc2822 = (date: Date) => date.toUTCString().replace('GMT', '+0000');

function resourceOf(account: TwilioAccount, message: TwilioMessage) {
  return {
    sid: message.sid,
    account_sid: account.accountSid,
    to: message.to,
    from: message.from,
    messaging_service_sid: message.messagingServiceSid,
    body: message.body,
    status: message.messagingServiceSid ? 'accepted' : 'queued',
    num_segments: '1',
    num_media: '0',
    direction: 'outbound-api',
    api_version: '2010-04-01',
    price: null,
    price_unit: null,
    error_code: null,
    error_message: null,
    date_created: message.dateCreated,
    date_updated: message.dateCreated,
    date_sent: null,
    uri: `/2010-04-01/Accounts/${account.accountSid}/Messages/${message.sid}.json`,
  };
}

export function twilioDouble(
  account: TwilioAccount = {
    accountSid: sid('AC'),
    authToken: randomBytes(16).toString('hex'),
    from: '+15005550006',
    messagingServiceSid: sid('MG'),
  },
): TwilioDouble {
  const requests: TwilioRequest[] = [];
  const messages: TwilioMessage[] = [];
  const unreachable = new Set<string>();
  const failures: number[] = [];
  let loseAnswer = false;

  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const form = request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded');
    const params = new URLSearchParams(form ? await request.text() : '');
    requests.push({ method: request.method, path: url.pathname, headers: request.headers, params });
    const injected = failures.shift();
    if (injected !== undefined) return error(injected, INJECTED[injected].code, INJECTED[injected].message);

    const authorization = request.headers.get('authorization') ?? '';
    const [user, password] = authorization.startsWith('Basic ') ? atob(authorization.slice(6)).split(':') : [];
    if (user !== account.accountSid || password !== account.authToken) return error(401, 20003, 'Authenticate');
    const path = MESSAGES_PATH.exec(url.pathname);
    if (!path || path[1] !== account.accountSid) return error(404, 20404, `The requested resource ${url.pathname} was not found`);
    if (request.method === 'GET') {
      const to = url.searchParams.get('To');
      const pageSize = Number(url.searchParams.get('PageSize') ?? 50);
      const listed = messages
        .filter((message) => !to || message.to === to)
        .reverse()
        .slice(0, pageSize)
        .map((message) => resourceOf(account, message));
      return Response.json({ messages: listed, page: 0, page_size: pageSize, start: 0, end: listed.length - 1, next_page_uri: null });
    }
    if (request.method !== 'POST') return error(405, 20004, 'Method not allowed');

    const to = params.get('To');
    if (!to) return error(400, 21604, "A 'To' phone number is required.");
    if (!E164.test(to) || unreachable.has(to)) return error(400, 21211, `Invalid 'To' Phone Number: ${to}`);
    const from = params.get('From');
    const service = params.get('MessagingServiceSid');
    if (!from && !service) return error(400, 21603, "A 'From' phone number is required.");
    if (service && service !== account.messagingServiceSid)
      return error(404, 20404, `The requested resource /Services/${service} was not found`);
    if (!service && from !== account.from) {
      return error(
        400,
        21606,
        `The From phone number ${from} is not a valid, SMS-capable inbound phone number or short code for your account.`,
      );
    }
    const body = params.get('Body');
    if (!body) return error(400, 21602, 'Message body is required.');
    if (body.length > MAX_BODY) return error(400, 21617, 'The concatenated message body exceeds the 1600 character limit.');

    const message: TwilioMessage = {
      sid: sid('SM'),
      to,
      from: service ? null : from,
      messagingServiceSid: service,
      body,
      dateCreated: rfc2822(new Date()),
    };
    messages.push(message);
    if (loseAnswer) {
      loseAnswer = false;
      throw new TypeError('fetch failed: the connection closed before the answer');
    }
    return Response.json(resourceOf(account, message), { status: 201 });
  }

  return {
    account,
    requests,
    messages,
    unreachable,
    handle,
    fetch: (url, init) => handle(new Request(url, init)),
    failNext(count, status) {
      for (let i = 0; i < count; i++) failures.push(status);
    },
    loseNextAnswer() {
      loseAnswer = true;
    },
  };
}
