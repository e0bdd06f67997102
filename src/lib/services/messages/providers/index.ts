/**
 * The email or SMS provider the configuration asks for (DESIGN.md, Messages):
 * - a local build run as one (LOCAL_BUILD, APP_ENV=local) writes to the dev outbox;
 * - deployed, EMAIL_PROVIDER picks resend or relay, SMS_PROVIDER twilio or relay; unset, both use
 *   the relay when MESSAGING_WEBHOOK_URL is set;
 * - a chosen provider missing its settings, or none at all, fails every delivery (transient, so the
 *   message waits for the fix) with a log line naming the variables: a deployed worker never drops
 *   a message silently.
 */
import type { Db } from '../../../data/client.ts';
import type { MessageChannel } from '../../../domain/messages.ts';
import { devOutboxProvider } from './dev-outbox.ts';
import { relayProvider } from './relay.ts';
import { resendProvider } from './resend.ts';
import { twilioProvider } from './twilio.ts';
import { DeliveryError, type Fetcher, type MessageProvider } from './types.ts';

export { DeliveryError, type MessageProvider } from './types.ts';

export type ProviderConfig = Pick<
  Cloudflare.Env,
  | 'APP_ENV'
  | 'MESSAGING_WEBHOOK_URL'
  | 'MESSAGING_WEBHOOK_TOKEN'
  | 'EMAIL_PROVIDER'
  | 'SMS_PROVIDER'
  | 'RESEND_API_KEY'
  | 'RESEND_API_URL'
  | 'EMAIL_FROM'
  | 'TWILIO_ACCOUNT_SID'
  | 'TWILIO_AUTH_TOKEN'
  | 'TWILIO_FROM'
  | 'TWILIO_MESSAGING_SERVICE_SID'
  | 'TWILIO_API_URL'
>;

/** A provider that refuses every message, saying which settings are missing. */
function unconfiguredProvider(channel: MessageChannel, problem: string): MessageProvider {
  return {
    async deliver(message) {
      const line = `Messaging is not configured: cannot send ${channel} message ${message.id}. ${problem}`;
      console.error(line);
      throw new DeliveryError(line, false);
    },
  };
}

/** The names of the settings that are empty. */
function missing(env: ProviderConfig, names: readonly (keyof ProviderConfig)[]): string[] {
  return names.filter((name) => !env[name]);
}

function relayFor(channel: MessageChannel, variable: string, env: ProviderConfig, fetcher: Fetcher): MessageProvider {
  if (!env.MESSAGING_WEBHOOK_URL)
    return unconfiguredProvider(channel, `${variable}=relay needs MESSAGING_WEBHOOK_URL (and MESSAGING_WEBHOOK_TOKEN).`);
  return relayProvider({ url: env.MESSAGING_WEBHOOK_URL, token: env.MESSAGING_WEBHOOK_TOKEN }, fetcher);
}

function emailProvider(env: ProviderConfig, fetcher: Fetcher): MessageProvider {
  const choice = env.EMAIL_PROVIDER || (env.MESSAGING_WEBHOOK_URL ? 'relay' : '');
  if (choice === 'relay') return relayFor('email', 'EMAIL_PROVIDER', env, fetcher);
  if (choice === 'resend') {
    const absent = missing(env, ['RESEND_API_KEY', 'EMAIL_FROM']);
    if (absent.length > 0) return unconfiguredProvider('email', `EMAIL_PROVIDER=resend needs ${absent.join(' and ')}.`);
    return resendProvider({ apiKey: env.RESEND_API_KEY ?? '', from: env.EMAIL_FROM ?? '', apiUrl: env.RESEND_API_URL }, fetcher);
  }
  if (choice) return unconfiguredProvider('email', `EMAIL_PROVIDER=${choice} is not a provider; use resend or relay.`);
  return unconfiguredProvider(
    'email',
    'Set EMAIL_PROVIDER=resend with RESEND_API_KEY and EMAIL_FROM, or MESSAGING_WEBHOOK_URL (and MESSAGING_WEBHOOK_TOKEN).',
  );
}

function smsProvider(env: ProviderConfig, fetcher: Fetcher): MessageProvider {
  const choice = env.SMS_PROVIDER || (env.MESSAGING_WEBHOOK_URL ? 'relay' : '');
  if (choice === 'relay') return relayFor('sms', 'SMS_PROVIDER', env, fetcher);
  if (choice === 'twilio') {
    const absent = missing(env, ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN']);
    if (!env.TWILIO_FROM && !env.TWILIO_MESSAGING_SERVICE_SID) absent.push('TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID');
    if (absent.length > 0) return unconfiguredProvider('sms', `SMS_PROVIDER=twilio needs ${absent.join(' and ')}.`);
    return twilioProvider(
      {
        accountSid: env.TWILIO_ACCOUNT_SID ?? '',
        authToken: env.TWILIO_AUTH_TOKEN ?? '',
        from: env.TWILIO_FROM,
        messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID,
        apiUrl: env.TWILIO_API_URL,
      },
      fetcher,
    );
  }
  if (choice) return unconfiguredProvider('sms', `SMS_PROVIDER=${choice} is not a provider; use twilio or relay.`);
  return unconfiguredProvider(
    'sms',
    'Set SMS_PROVIDER=twilio with TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM (or TWILIO_MESSAGING_SERVICE_SID), or MESSAGING_WEBHOOK_URL (and MESSAGING_WEBHOOK_TOKEN).',
  );
}

/** The provider that delivers `channel` messages under this configuration. */
export function providerFor(channel: MessageChannel, env: ProviderConfig, db: Db, fetcher: Fetcher = fetch): MessageProvider {
  if (LOCAL_BUILD && env.APP_ENV === 'local') return devOutboxProvider(db);
  return channel === 'email' ? emailProvider(env, fetcher) : smsProvider(env, fetcher);
}
