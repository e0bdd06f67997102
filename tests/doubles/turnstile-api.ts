/**
 * A local double of Cloudflare Turnstile, as its documentation describes it: siteverify (JSON or
 * form-encoded body: secret, response, remoteip, idempotency_key; tokens single-use and valid for
 * 300 s; the documented error codes) and a stand-in of the widget script `api.js` whose
 * `turnstile.render(container, {sitekey, action, callback, …})` draws a frame from this origin, as
 * the real widget does, with a "Verify you are human" button: clicking it solves the challenge and
 * hands the token to `callback`. Tests (and the e2e server, TURNSTILE_API_URL / TURNSTILE_SCRIPT_URL)
 * point the app at it; `POST /_double/solve {hostname, action, sitekey}` plays a solved widget.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The one key pair the double knows: a widget rendered with this site key yields tokens this secret verifies. */
export const TURNSTILE_DOUBLE_SITE_KEY = '0x4AAAAAAADoubleSiteKey';
export const TURNSTILE_DOUBLE_SECRET = '0x4AAAAAAADoubleSecretKey';
/** Turnstile's tokens expire 300 s after they are made (its docs). */
const TOKEN_LIFETIME_MS = 300_000;
/** Turnstile's tokens are at most 2048 characters. */
const TOKEN_MAX_LENGTH = 2048;

export interface TurnstileDouble {
  url: string;
  /** The stand-in widget script, as TURNSTILE_SCRIPT_URL. */
  scriptUrl: string;
  /** A token solved for this hostname and action, as the widget's callback would receive it. */
  solve(challenge: { hostname: string; action: string; sitekey?: string }): string;
  close(): Promise<void>;
}

interface Issued {
  hostname: string;
  action: string;
  sitekey: string;
  issuedAt: number;
  spent: boolean;
}

type Verdict = Record<string, unknown>;

const failure = (...codes: string[]): Verdict => ({ success: false, 'error-codes': codes, messages: [] });

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

/** Siteverify's parameters from either documented body; null for a body it cannot read (bad-request). */
function parametersOf(contentType: string, body: string): Record<string, string> | null {
  const type = contentType.split(';')[0].trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body));
  if (type !== 'application/json') return null;
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    return null;
  }
}

/** The stand-in api.js: explicit rendering of a framed button, the token passed back by postMessage as the real widget's frame does. */
function widgetScript(origin: string): string {
  return `(() => {
  const origin = ${JSON.stringify(origin)};
  const callbacks = new Map();
  let next = 0;
  window.addEventListener('message', (event) => {
    if (event.origin !== origin || !event.data || typeof event.data.widgetId !== 'string') return;
    const options = callbacks.get(event.data.widgetId);
    if (options && typeof options.callback === 'function') options.callback(event.data.token);
  });
  window.turnstile = {
    render(container, options) {
      const element = typeof container === 'string' ? document.querySelector(container) : container;
      const widgetId = 'double-' + ++next;
      const frame = document.createElement('iframe');
      const query = new URLSearchParams({ widgetId, sitekey: options.sitekey || '', action: options.action || '', hostname: location.hostname });
      frame.src = origin + '/_double/widget?' + query;
      frame.title = 'Widget containing a Cloudflare security challenge';
      frame.style.cssText = 'border:0;width:300px;height:65px';
      element.appendChild(frame);
      callbacks.set(widgetId, options);
      return widgetId;
    },
    remove(widgetId) { callbacks.delete(widgetId); },
    reset() {},
  };
})();
`;
}

function widgetPage(query: URLSearchParams): string {
  const solve = JSON.stringify({ hostname: query.get('hostname'), action: query.get('action'), sitekey: query.get('sitekey') });
  return `<!doctype html><html lang="en"><body style="margin:0;font:14px sans-serif">
<button type="button" id="verify" style="height:60px;width:290px">Verify you are human</button>
<script>
  document.getElementById('verify').addEventListener('click', async (event) => {
    const answer = await fetch('/_double/solve', { method: 'POST', headers: { 'content-type': 'application/json' }, body: ${JSON.stringify(solve)} });
    const { token } = await answer.json();
    event.target.textContent = 'Success!';
    parent.postMessage({ widgetId: ${JSON.stringify(query.get('widgetId'))}, token }, '*');
  });
</script></body></html>`;
}

export async function startTurnstileDouble(port = 0): Promise<TurnstileDouble> {
  const tokens = new Map<string, Issued>();
  /** Answers given with an idempotency key: a retry with the same key and token is answered the same, not as a duplicate. */
  const retries = new Map<string, Verdict>();

  function solve({
    hostname,
    action,
    sitekey = TURNSTILE_DOUBLE_SITE_KEY,
  }: {
    hostname: string;
    action: string;
    sitekey?: string;
  }): string {
    const token = `XXXX.DOUBLE.${randomBytes(48).toString('base64url')}`;
    tokens.set(token, { hostname, action, sitekey, issuedAt: Date.now(), spent: false });
    return token;
  }

  function siteverify(parameters: Record<string, string>): Verdict {
    const { secret, response, idempotency_key: idempotencyKey } = parameters;
    if (!secret) return failure('missing-input-secret');
    if (secret !== TURNSTILE_DOUBLE_SECRET) return failure('invalid-input-secret');
    if (!response) return failure('missing-input-response');
    const retried = idempotencyKey ? retries.get(`${idempotencyKey}:${response}`) : undefined;
    if (retried) return retried;
    const issued = response.length <= TOKEN_MAX_LENGTH ? tokens.get(response) : undefined;
    if (!issued || issued.sitekey !== TURNSTILE_DOUBLE_SITE_KEY) return failure('invalid-input-response');
    if (issued.spent || Date.now() - issued.issuedAt > TOKEN_LIFETIME_MS) return failure('timeout-or-duplicate');
    issued.spent = true;
    const verdict = {
      success: true,
      'error-codes': [],
      challenge_ts: new Date(issued.issuedAt).toISOString(),
      hostname: issued.hostname,
      action: issued.action,
      cdata: '',
      metadata: { ephemeral_id: `x:${randomBytes(10).toString('hex')}` },
    };
    if (idempotencyKey) retries.set(`${idempotencyKey}:${response}`, verdict);
    return verdict;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://double');
    const send = (status: number, type: string, body: string) => {
      response.writeHead(status, { 'content-type': type });
      response.end(body);
    };
    const json = (status: number, body: unknown) => send(status, 'application/json', JSON.stringify(body));
    if (request.method === 'POST' && url.pathname === '/turnstile/v0/siteverify') {
      const parameters = parametersOf(request.headers['content-type'] ?? '', await readBody(request));
      return parameters ? json(200, siteverify(parameters)) : json(400, failure('bad-request'));
    }
    if (request.method === 'GET' && url.pathname === '/turnstile/v0/api.js') {
      return send(200, 'text/javascript', widgetScript(`http://${request.headers.host}`));
    }
    if (request.method === 'GET' && url.pathname === '/_double/widget') return send(200, 'text/html', widgetPage(url.searchParams));
    if (request.method === 'POST' && url.pathname === '/_double/solve') {
      const challenge = JSON.parse(await readBody(request)) as { hostname: string; action: string; sitekey?: string };
      return json(200, { token: solve(challenge) });
    }
    json(404, { error: 'not found' });
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/turnstile/v0/siteverify`,
    scriptUrl: `${origin}/turnstile/v0/api.js?render=explicit`,
    solve,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
