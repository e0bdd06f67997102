import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../src/lib/data/client.ts';
import type { OutgoingMessage } from '../../src/lib/domain/messages.ts';
import { DeliveryError, type ProviderConfig, providerFor } from '../../src/lib/services/messages/providers/index.ts';
import { relayProvider } from '../../src/lib/services/messages/providers/relay.ts';
import { resendProvider } from '../../src/lib/services/messages/providers/resend.ts';
import { e164, twilioProvider } from '../../src/lib/services/messages/providers/twilio.ts';
import { resendDouble } from '../doubles/resend-api.ts';
import { twilioDouble } from '../doubles/twilio-api.ts';

const email: OutgoingMessage = {
  id: 'c0a80121-7ac0-4e1c-9b3a-5f1d2e3c4b5a',
  channel: 'email',
  to: 'buyer@example.com',
  subject: 'Your order TW-1042',
  text: 'Thank you for your order.',
  html: '<p>Thank you for your order.</p>',
};

const sms: OutgoingMessage = {
  id: '6f9c1d2e-0b7a-4c3d-8e9f-a1b2c3d4e5f6',
  channel: 'sms',
  to: '+852 91234567',
  subject: 'Your order TW-1042',
  text: 'TicketWing: order TW-1042 is paid.',
  html: null,
};

/** How a delivery failed: null when it did not. */
async function failureOf(delivery: Promise<void>): Promise<{ permanent: boolean; message: string } | null> {
  try {
    await delivery;
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(DeliveryError);
    return { permanent: (error as DeliveryError).permanent, message: (error as DeliveryError).message };
  }
}

const unreachable = async () => {
  throw new TypeError('fetch failed');
};

afterEach(() => vi.restoreAllMocks());

describe('Resend', () => {
  const config = (double = resendDouble()) => ({
    apiKey: double.apiKey,
    from: 'Tickets <tickets@example.com>',
    apiUrl: 'https://resend.test',
  });

  it('sends the email with our id as the idempotency key, so a retried delivery sends it once', async () => {
    const double = resendDouble();
    const provider = resendProvider(config(double), double.fetch);
    await provider.deliver(email);
    await provider.deliver(email);
    expect(double.emails).toEqual([
      {
        id: expect.any(String),
        from: 'Tickets <tickets@example.com>',
        to: ['buyer@example.com'],
        subject: 'Your order TW-1042',
        text: 'Thank you for your order.',
        html: '<p>Thank you for your order.</p>',
        idempotencyKey: email.id,
      },
    ]);
    const [first] = double.requests;
    expect(first).toMatchObject({ method: 'POST', path: '/emails' });
    expect(first.headers.get('authorization')).toBe(`Bearer ${double.apiKey}`);
    expect(first.headers.get('user-agent')).toBeTruthy();
  });

  it('sends a text-only email without an html part', async () => {
    const double = resendDouble();
    await resendProvider(config(double), double.fetch).deliver({ ...email, html: null });
    expect(double.emails[0]).not.toHaveProperty('html');
    expect(double.emails[0].text).toBe(email.text);
  });

  it('gives up on a refused key or sender, and on a body Resend will never take', async () => {
    const double = resendDouble();
    const wrongKey = await failureOf(resendProvider({ ...config(double), apiKey: 're_wrong' }, double.fetch).deliver(email));
    expect(wrongKey).toEqual({ permanent: true, message: expect.stringMatching(/HTTP 403 invalid_api_key/) });
    const badSender = await failureOf(resendProvider({ ...config(double), from: 'Tickets' }, double.fetch).deliver(email));
    expect(badSender).toEqual({ permanent: true, message: expect.stringMatching(/HTTP 422 validation_error/) });
    const badAddress = await failureOf(resendProvider(config(double), double.fetch).deliver({ ...email, to: 'not an address' }));
    expect(badAddress?.permanent).toBe(true);
    // The same id with another body is a conflict no retry resolves.
    const provider = resendProvider(config(double), double.fetch);
    await provider.deliver(email);
    expect(await failureOf(provider.deliver({ ...email, subject: 'Changed' }))).toEqual({
      permanent: true,
      message: expect.stringMatching(/HTTP 409 invalid_idempotent_request/),
    });
    expect(double.emails).toHaveLength(1);
  });

  it('retries later on rate limits, a copy still in flight, Resend failures and network errors', async () => {
    const double = resendDouble();
    const provider = resendProvider(config(double), double.fetch);
    for (const status of [429, 409, 500, 503] as const) {
      double.failNext(1, status);
      expect(await failureOf(provider.deliver(email)), String(status)).toEqual({
        permanent: false,
        message: expect.stringContaining(`HTTP ${status}`),
      });
    }
    await provider.deliver(email);
    expect(double.emails).toHaveLength(1);
    expect(await failureOf(resendProvider(config(double), unreachable).deliver(email))).toEqual({
      permanent: false,
      message: expect.stringMatching(/Resend unreachable/),
    });
  });

  it('gives every call a deadline', async () => {
    const fetcher = vi.fn(async (_url: string, _init: RequestInit) => Response.json({ id: 'x' }));
    await resendProvider(config(), fetcher).deliver(email);
    expect(fetcher.mock.calls[0][0]).toBe('https://resend.test/emails');
    expect(fetcher.mock.calls[0][1].signal).toBeInstanceOf(AbortSignal);
  });
});

describe('Twilio', () => {
  const config = (double = twilioDouble()) => ({
    accountSid: double.account.accountSid,
    authToken: double.account.authToken,
    from: double.account.from,
    apiUrl: 'https://twilio.test',
  });

  it('stores phones as "+852 91234567" and sends them as E.164', () => {
    expect(e164('+852 91234567')).toBe('+85291234567');
    expect(e164('+1 (415) 555-2671')).toBe('+14155552671');
    expect(e164('91234567')).toBeNull();
    expect(e164('+852 9123abcd')).toBeNull();
  });

  it('sends the SMS from our number with the account credentials', async () => {
    const double = twilioDouble();
    await twilioProvider(config(double), double.fetch).deliver(sms);
    expect(double.messages).toEqual([
      {
        sid: expect.stringMatching(/^SM[0-9a-f]{32}$/),
        to: '+85291234567',
        from: double.account.from,
        messagingServiceSid: null,
        body: sms.text,
        dateCreated: expect.stringMatching(/ \+0000$/),
      },
    ]);
    const [request] = double.requests;
    expect(request.path).toBe(`/2010-04-01/Accounts/${double.account.accountSid}/Messages.json`);
    expect(request.headers.get('authorization')).toBe(`Basic ${btoa(`${double.account.accountSid}:${double.account.authToken}`)}`);
    expect(request.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
  });

  it('sends through a Messaging Service when one is configured', async () => {
    const double = twilioDouble();
    await twilioProvider({ ...config(double), messagingServiceSid: double.account.messagingServiceSid }, double.fetch).deliver(sms);
    expect(double.messages[0]).toMatchObject({ from: null, messagingServiceSid: double.account.messagingServiceSid });
    expect(double.requests[0].params.has('From')).toBe(false);
  });

  it('gives up on a number that is not one, without calling Twilio, and on numbers and credentials Twilio refuses', async () => {
    const double = twilioDouble();
    const provider = twilioProvider(config(double), double.fetch);
    expect(await failureOf(provider.deliver({ ...sms, to: '+852 abc' }))).toEqual({
      permanent: true,
      message: expect.stringContaining('not a phone number'),
    });
    expect(double.requests).toHaveLength(0);
    double.unreachable.add('+85200000000');
    expect(await failureOf(provider.deliver({ ...sms, to: '+852 00000000' }))).toEqual({
      permanent: true,
      message: expect.stringMatching(/HTTP 400 21211/),
    });
    const wrongToken = await failureOf(twilioProvider({ ...config(double), authToken: 'wrong' }, double.fetch).deliver(sms));
    expect(wrongToken).toEqual({ permanent: true, message: expect.stringMatching(/HTTP 401 20003/) });
    const notOurNumber = await failureOf(twilioProvider({ ...config(double), from: '+15550000000' }, double.fetch).deliver(sms));
    expect(notOurNumber).toEqual({ permanent: true, message: expect.stringMatching(/HTTP 400 21606/) });
    expect(double.messages).toHaveLength(0);
  });

  it('sends nothing on a retry when the earlier attempt reached Twilio and only its answer was lost', async () => {
    const double = twilioDouble();
    const provider = twilioProvider(config(double), double.fetch);
    const written = Date.now() - 1000;
    double.loseNextAnswer();
    expect(await failureOf(provider.deliver(sms))).toEqual({ permanent: false, message: expect.stringMatching(/Twilio unreachable/) });
    await provider.deliver({ ...sms, retrySince: written });
    expect(double.messages).toHaveLength(1);
    expect(double.requests.map((request) => request.method)).toEqual(['POST', 'GET']);
    expect(double.requests[1].path).toBe(`/2010-04-01/Accounts/${double.account.accountSid}/Messages.json`);
  });

  it('sends on a retry when the earlier attempt never reached Twilio, or the same text went out before the message was written', async () => {
    const double = twilioDouble();
    const provider = twilioProvider(config(double), double.fetch);
    double.failNext(1, 503);
    expect((await failureOf(provider.deliver(sms)))?.permanent).toBe(false);
    await provider.deliver({ ...sms, retrySince: Date.now() - 1000 });
    expect(double.messages).toHaveLength(1);
    // The same words to the same number an hour before this message existed are another message.
    await provider.deliver({ ...sms, retrySince: Date.now() + 60 * 60 * 1000 });
    expect(double.messages).toHaveLength(2);
    // Another number's copy is not this one's.
    await provider.deliver({ ...sms, to: '+852 98765432', retrySince: Date.now() - 1000 });
    expect(double.messages).toHaveLength(3);
  });

  it('retries later, never guesses, when the lookup for an earlier copy fails', async () => {
    const double = twilioDouble();
    const provider = twilioProvider(config(double), double.fetch);
    double.failNext(1, 500);
    expect(await failureOf(provider.deliver({ ...sms, retrySince: Date.now() }))).toEqual({
      permanent: false,
      message: expect.stringMatching(/could not list earlier copies .* HTTP 500/),
    });
    expect(double.requests.map((request) => request.method)).toEqual(['GET']);
    expect(double.messages).toHaveLength(0);
  });

  it('retries later on rate limits, Twilio failures and network errors', async () => {
    const double = twilioDouble();
    const provider = twilioProvider(config(double), double.fetch);
    double.failNext(3, 429);
    for (let i = 0; i < 3; i++)
      expect(await failureOf(provider.deliver(sms))).toEqual({ permanent: false, message: expect.stringMatching(/HTTP 429 20429/) });
    double.failNext(1, 503);
    expect((await failureOf(provider.deliver(sms)))?.permanent).toBe(false);
    await provider.deliver(sms);
    expect(double.messages).toHaveLength(1);
    expect(await failureOf(twilioProvider(config(double), unreachable).deliver(sms))).toEqual({
      permanent: false,
      message: expect.stringMatching(/Twilio unreachable/),
    });
  });
});

describe('the relay', () => {
  it('posts the message with its id, as body and idempotency key, and the bearer token', async () => {
    const fetcher = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
    await relayProvider({ url: 'https://relay.example/send', token: 'relay-token' }, fetcher).deliver(email);
    const [url, init] = fetcher.mock.calls[0];
    expect(url).toBe('https://relay.example/send');
    const headers = new Headers(init.headers);
    expect(headers.get('authorization')).toBe('Bearer relay-token');
    expect(headers.get('idempotency-key')).toBe(email.id);
    expect(JSON.parse(String(init.body))).toEqual({
      id: email.id,
      channel: 'email',
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
    });
    expect(init.signal).toBeInstanceOf(AbortSignal);
  });

  it('gives up on a refusal, retries on overload, failure or no answer', async () => {
    const answering = (status: number) => relayProvider({ url: 'https://relay.example/send' }, async () => new Response(null, { status }));
    expect((await failureOf(answering(400).deliver(email)))?.permanent).toBe(true);
    expect((await failureOf(answering(401).deliver(email)))?.permanent).toBe(true);
    expect((await failureOf(answering(429).deliver(email)))?.permanent).toBe(false);
    expect((await failureOf(answering(502).deliver(email)))?.permanent).toBe(false);
    expect((await failureOf(relayProvider({ url: 'https://relay.example/send' }, unreachable).deliver(email)))?.permanent).toBe(false);
  });
});

describe('the provider the configuration chooses', () => {
  const production: ProviderConfig = { APP_ENV: 'production' };
  const noDb = {} as Db;

  it('keeps messages in the dev outbox in a local build, whatever else is set', async () => {
    const rows: unknown[] = [];
    const db = { insert: () => ({ values: (row: unknown) => ({ onConflictDoNothing: async () => rows.push(row) }) }) } as unknown as Db;
    const fetcher = vi.fn();
    vi.spyOn(console, 'log').mockImplementation(() => {});
    await providerFor(
      'email',
      { APP_ENV: 'local', EMAIL_PROVIDER: 'resend', RESEND_API_KEY: 're_x', EMAIL_FROM: 'a@example.com' },
      db,
      fetcher,
    ).deliver(email);
    expect(rows).toEqual([
      { channel: 'email', target: email.to, subject: email.subject, body: email.text, html: email.html, messageId: email.id },
    ]);
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('sends email through Resend and SMS through Twilio when asked to', async () => {
    const resend = resendDouble();
    const twilio = twilioDouble();
    const env: ProviderConfig = {
      ...production,
      EMAIL_PROVIDER: 'resend',
      RESEND_API_KEY: resend.apiKey,
      RESEND_API_URL: 'https://resend.test',
      EMAIL_FROM: 'Tickets <tickets@example.com>',
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: twilio.account.accountSid,
      TWILIO_AUTH_TOKEN: twilio.account.authToken,
      TWILIO_MESSAGING_SERVICE_SID: twilio.account.messagingServiceSid,
      TWILIO_API_URL: 'https://twilio.test',
    };
    const route = async (url: string, init: RequestInit) =>
      url.startsWith('https://resend.test') ? resend.fetch(url, init) : twilio.fetch(url, init);
    await providerFor('email', env, noDb, route).deliver(email);
    await providerFor('sms', env, noDb, route).deliver(sms);
    expect(resend.emails).toHaveLength(1);
    expect(twilio.messages).toHaveLength(1);
  });

  it('uses the relay for both channels when only MESSAGING_WEBHOOK_URL is set, and for the channel without a provider', async () => {
    const fetcher = vi.fn(async (_url: string, _init: RequestInit) => new Response(null, { status: 202 }));
    const env: ProviderConfig = { ...production, MESSAGING_WEBHOOK_URL: 'https://relay.example/send' };
    await providerFor('email', env, noDb, fetcher).deliver(email);
    await providerFor(
      'sms',
      { ...env, EMAIL_PROVIDER: 'resend', RESEND_API_KEY: 're_x', EMAIL_FROM: 'a@example.com' },
      noDb,
      fetcher,
    ).deliver(sms);
    expect(fetcher.mock.calls.map(([url]) => url)).toEqual(['https://relay.example/send', 'https://relay.example/send']);
  });

  it('fails every delivery, to be retried, naming the settings that are missing', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fetcher = vi.fn();
    const cases: [OutgoingMessage, ProviderConfig, RegExp][] = [
      [email, production, /Set EMAIL_PROVIDER=resend with RESEND_API_KEY and EMAIL_FROM, or MESSAGING_WEBHOOK_URL/],
      [sms, production, /Set SMS_PROVIDER=twilio with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM/],
      [email, { ...production, EMAIL_PROVIDER: 'resend', RESEND_API_KEY: 're_x' }, /EMAIL_PROVIDER=resend needs EMAIL_FROM\./],
      [email, { ...production, EMAIL_PROVIDER: 'relay' }, /EMAIL_PROVIDER=relay needs MESSAGING_WEBHOOK_URL/],
      [email, { ...production, EMAIL_PROVIDER: 'sendgrid' }, /EMAIL_PROVIDER=sendgrid is not a provider/],
      [
        sms,
        { ...production, SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: 't' },
        /SMS_PROVIDER=twilio needs TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID\./,
      ],
      [sms, { ...production, SMS_PROVIDER: 'twilio', TWILIO_FROM: '+15005550006' }, /needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN\./],
    ];
    for (const [message, env, named] of cases) {
      log.mockClear();
      const failure = await failureOf(providerFor(message.channel, env, noDb, fetcher).deliver(message));
      expect(failure, String(named)).toEqual({ permanent: false, message: expect.stringMatching(named) });
      expect(log).toHaveBeenCalledWith(expect.stringMatching(new RegExp(`Messaging is not configured.*${named.source}`)));
    }
    expect(fetcher).not.toHaveBeenCalled();
  });
});
