/**
 * Signing in from end-to-end tests. The server limits code sending and asks for a captcha per client
 * address, and every test's browser comes from 127.0.0.1: give each test its own address (Cloudflare
 * sets CF-Connecting-IP in production; the local server takes it from the request) so tests never
 * share those counters, whatever order they run in.
 */
import { expect, type APIRequestContext, type BrowserContext, type TestInfo } from '@playwright/test';

let counter = 0;

/** Sends all of this test's requests (page and API) from an address of its own. */
export async function ownClientAddress(context: BrowserContext, testInfo: TestInfo): Promise<void> {
  counter += 1;
  const address = `198.18.${testInfo.workerIndex % 256}.${counter % 256}`;
  await context.setExtraHTTPHeaders({ 'cf-connecting-ip': address });
}

/** An email address no other test uses. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@e2e.example.com`;
}

/** The latest code the dev outbox holds for an email or a phone ("+852 91234567"); local builds only. */
export async function codeFor(request: APIRequestContext, target: string): Promise<string> {
  const response = await request.get(`/api/v1/dev/outbox?target=${encodeURIComponent(target)}`);
  const { data } = (await response.json()) as { data: { body: string }[] };
  const code = data[0]?.body.match(/\b(\d{6})\b/)?.[1];
  expect(code, `a code in the outbox for ${target}`).toBeTruthy();
  return code!;
}

/**
 * Registers a new email account through the API, which signs the browser context in (the cookies
 * land in it). Returns the address and user id, for tests that need a signed-in buyer.
 */
export async function signUpByEmail(
  request: APIRequestContext,
  label: string,
  password = 'Tickets2026',
): Promise<{ email: string; userId: number }> {
  const email = uniqueEmail(label);
  expect((await request.post('/api/v1/user/mail/regVerify', { data: { email } })).status()).toBe(200);
  const response = await request.post('/api/v1/user/mail/register', {
    data: { email, code: await codeFor(request, email), password, agreement: true },
  });
  expect(response.status(), await response.text()).toBe(200);
  const { data } = (await response.json()) as { data: { user: { userId: number } } };
  return { email, userId: data.user.userId };
}
