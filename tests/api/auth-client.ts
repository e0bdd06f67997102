/**
 * A browser-like API client for tests that need a session: it keeps cookies between calls, sends a
 * client address of its own (rate limits and captchas are per client), and can sign up by email
 * code through the dev outbox, as a new user would.
 */
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { api } from '../../src/lib/api/app.ts';
import { TOKEN_COOKIE, USER_ID_COOKIE } from '../../src/lib/config/request.ts';
import { database } from '../../src/lib/data/client.ts';
import { users } from '../../src/lib/db/schema.ts';
import { createSession } from '../../src/lib/services/accounts/sessions.ts';

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: { code: number; data: T; message: string; errorCode?: string; field?: string };
  /** The raw text, for answers that are not JSON (the captcha image). */
  text: string;
}

let nextAddress = 1;

export class TestClient {
  readonly cookies = new Map<string, string>();
  readonly ip: string;
  /** Whether requests carry the connecting address the edge sets; off to play a request that did not come through it. */
  sendsAddress = true;
  envOverrides: Partial<Cloudflare.Env>;

  constructor(envOverrides: Partial<Cloudflare.Env> = {}) {
    this.ip = `198.51.100.${nextAddress++}`;
    this.envOverrides = envOverrides;
  }

  async call<T = unknown>(
    path: string,
    init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Answer<T>> {
    const headers = new Headers(init.headers);
    if (this.sendsAddress) headers.set('cf-connecting-ip', this.ip);
    if (this.cookies.size > 0) headers.set('cookie', [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '));
    if (init.body !== undefined) headers.set('content-type', 'application/json');
    const request = new Request(`http://localhost${path}`, {
      method: init.method ?? 'GET',
      headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
    const response = await api.fetch(request, { ...env, ...this.envOverrides });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const name = pair.slice(0, pair.indexOf('=')).trim();
      const value = pair.slice(pair.indexOf('=') + 1).trim();
      if (value === '' || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    const body = response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : null;
    return { status: response.status, headers: response.headers, body, text };
  }

  post<T = unknown>(path: string, body: unknown) {
    return this.call<T>(path, { method: 'POST', body });
  }
}

/** The latest 6-digit code the dev outbox holds for an address. */
export async function latestCode(target: string): Promise<string> {
  const reader = new TestClient();
  const { body } = await reader.call<{ body: string }[]>(`/api/v1/dev/outbox?target=${encodeURIComponent(target)}`);
  const code = body.data[0]?.body.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`No code in the outbox for ${target}`);
  return code;
}

/** Registers an email account with a password through the real flow; the client is then signed in. */
export async function signUp(client: TestClient, email: string, password = 'Tickets2026'): Promise<number> {
  const sent = await client.post('/api/v1/user/mail/regVerify', { email });
  if (sent.status !== 200) throw new Error(`regVerify failed: ${sent.text}`);
  const code = await latestCode(email);
  const registered = await client.post<{ user: { userId: number } }>('/api/v1/user/mail/register', {
    email,
    code,
    password,
    agreement: true,
  });
  if (registered.status !== 200) throw new Error(`register failed: ${registered.text}`);
  return registered.body.data.user.userId;
}

/** Lets an address be sent another code at once (the one-a-minute limit is tested on its own). */
export async function allowAnotherCode(target: string): Promise<void> {
  await env.DB.prepare('DELETE FROM rate_limits WHERE key = ?').bind(`send:target:minute:${target}`).run();
}

let signedInCount = 0;

/** A client signed in as a brand-new account, for tests that only need "some user". */
export async function signedInClient(label: string): Promise<TestClient> {
  const client = new TestClient();
  signedInCount += 1;
  await signUp(client, `${label}${signedInCount}@example.com`);
  return client;
}

/** A client signed in as an existing user (a seed seller); the session is made directly, as sign-in has tests of its own. */
export async function sellerClient(sellerId: number): Promise<TestClient> {
  const db = database(env.DB);
  const [user] = await db.select().from(users).where(eq(users.id, sellerId));
  const session = await createSession(db, user, Date.now());
  const client = new TestClient();
  client.cookies.set(TOKEN_COOKIE, session.token);
  client.cookies.set(USER_ID_COOKIE, String(sellerId));
  return client;
}
