import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { database } from '../../src/lib/data/client.ts';
import type { OutgoingMessage } from '../../src/lib/domain/messages.ts';
import { OUTBOX_PAGE, type OutboxEntry } from '../../src/lib/services/messages/providers/dev-outbox.ts';
import { providerFor } from '../../src/lib/services/messages/providers/index.ts';
import { TestClient } from './auth-client.ts';

const local = { APP_ENV: 'local' } as const;

function message(n: number, overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    id: crypto.randomUUID(),
    channel: 'email',
    to: `outbox${n}@example.com`,
    subject: `Order TW-${n}`,
    text: `Order TW-${n} is paid.`,
    html: `<p>Order <b>TW-${n}</b> is paid.</p>`,
    ...overrides,
  };
}

async function outbox(query = '') {
  const answer = await new TestClient().call<OutboxEntry[]>(`/api/v1/dev/outbox${query}`);
  expect(answer.status).toBe(200);
  return answer.body.data;
}

describe('the dev outbox', () => {
  // Each delivery logs a line; the test reads the table instead.
  beforeEach(() => vi.spyOn(console, 'log').mockImplementation(() => {}));
  afterEach(() => vi.restoreAllMocks());

  it('stores a message delivered twice once, with its HTML part and id', async () => {
    const provider = providerFor('email', local, database(env.DB));
    const twice = message(1);
    await provider.deliver(twice);
    await provider.deliver(twice);
    expect(await outbox(`?target=${encodeURIComponent(twice.to)}`)).toEqual([
      {
        channel: 'email',
        target: twice.to,
        subject: twice.subject,
        body: twice.text,
        html: twice.html,
        messageId: twice.id,
        createdAt: expect.any(Number),
      },
    ]);
  });

  it('lists the latest messages to anyone, newest first, when asked for no address', async () => {
    const db = database(env.DB);
    const sent = Array.from({ length: OUTBOX_PAGE + 2 }, (_, i) => message(100 + i));
    for (const each of sent) await providerFor('email', local, db).deliver(each);
    const text = message(999, { channel: 'sms', to: '+852 91234567', html: null });
    await providerFor('sms', local, db).deliver(text);
    const latest = await outbox();
    expect(latest).toHaveLength(OUTBOX_PAGE);
    expect(latest[0]).toMatchObject({ channel: 'sms', target: '+852 91234567', html: null, messageId: text.id });
    expect(latest.slice(1, 4).map((entry) => entry.messageId)).toEqual(
      sent
        .slice(-3)
        .reverse()
        .map((each) => each.id),
    );
  });
});
