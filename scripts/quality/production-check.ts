/**
 * Production check: the production build (`npx astro build`, no LOCAL_BUILD) holds none of the
 * local-only code (integrations/local-build.ts): its worker bundle has no text of it. Started as a deployed
 * copy is (APP_ENV=production, an APP_SECRET, PUBLIC_ORIGIN, no payment provider), on a fresh migrated
 * and seeded database, it must not expose what only a local build has. The database holds a pending
 * sandbox payment, whose hosted page a local build shows and lets anyone approve: deployed, that page
 * (shown or posted a decision), the sandbox's webhook, the dev routes, the API document and the mail
 * viewer answer 404 however their path is spelled (percent-encoded, double-encoded, in capitals, under
 * the /api/api alias), the captcha image tells no answer, and the payment stays undecided (no SQL
 * posted to any spelling of the dev route ran); the home page still answers, and pages and API answers carry the security headers a
 * deployed copy owes (HSTS included) and a Secure channel cookie; an activity's poster is asked of
 * Cloudflare's image transformations, not of the files a local build serves; robots.txt, the sitemap
 * index and the link previews name URLs on PUBLIC_ORIGIN. Then, on a second database migrated but not seeded (as a
 * deployment starts), every page renders its empty states for a visitor and for the first operator, never a 500
 * (empty-catalogue.ts). Writes test-results/production.json.
 *
 *   node scripts/quality/production-check.ts        (needs the production build in dist/: npx astro build)
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, query, ROOT, seedIfEmpty, serveArgs, WRANGLER } from '../local-db.ts';
import { freePort, startServer } from '../server.ts';
import { emptyCatalogueChecks, prepareEmptyCatalogue } from './empty-catalogue.ts';
import { type Check, type Result, runCheck } from './http-checks.ts';

const START_TIMEOUT_MS = 120_000;
const summaryFile = path.join(ROOT, 'test-results', 'production.json');
const SANDBOX_REF = `sbx_${'A'.repeat(43)}`;
const SANDBOX_PAGE = `/en/sandbox/pay/${SANDBOX_REF}`;
/** Were it run, this would mark the pending sandbox payment paid: the ledger check at the end would see it. */
const SQL_BODY = JSON.stringify({ sql: "UPDATE sandbox_payments SET status = 'paid'" });
const JSON_TYPE = 'application/json';

/** Text that only local-only code holds, with the source that holds it: the production bundle must have none. */
const LOCAL_ONLY_CODE = [
  { source: 'src/lib/api/routes/dev.ts', text: 'Runs one SQL statement on the local database' },
  { source: 'src/lib/services/platform/dev-fixtures.ts', text: 'Copies a listing onto a tier' },
  { source: 'src/lib/api/docs.ts', text: 'Ticket marketplace API' },
  { source: 'src/lib/services/payments/providers/sandbox.ts', text: 'sandbox-webhook' },
  { source: 'src/lib/loaders/sandbox-payment.ts', text: 'Sandbox webhook refused' },
  { source: 'src/local-pages/dev/mail.astro', text: 'devmail-to' },
  { source: 'src/lib/data/measured-d1.ts', text: 'X-Count-Round-Trips' },
];
/**
 * Where the adapter writes the worker, and the files of the code it runs (not the source maps beside
 * them: they hold whole source files, also of modules only partly kept, like docs.ts's `describe`).
 */
const WORKER_DIR = path.join(ROOT, 'dist', 'server');
const CODE_FILE = /\.(?:mjs|js)$/;

/**
 * Other spellings of the local-only paths: percent-encoded (a router decodes them), double-encoded,
 * in capitals, with a trailing slash, under the /api/api alias. Each must answer 404 like the plain one.
 */
const LOCAL_ONLY_SPELLINGS: [method: string, path: string, body?: string, type?: string][] = [
  ['POST', '/api/v1/%64ev/sql', SQL_BODY],
  ['POST', '/api/v1/d%65v/sql', SQL_BODY],
  ['POST', '/api/v1/%2564ev/sql', SQL_BODY],
  ['POST', '/api/v1/DEV/sql', SQL_BODY],
  ['POST', '/api/v1/dev/SQL', SQL_BODY],
  ['POST', '/api/v1/dev/sql/', SQL_BODY],
  ['POST', '/api/v1/dev%2Fsql', SQL_BODY],
  ['POST', '/api/api/v1/%64ev/sql', SQL_BODY],
  ['POST', '/api/%61pi/v1/%64ev/sql', SQL_BODY],
  ['GET', '/api/v1/d%65v/outbox'],
  ['GET', '/api/v1/%44EV/outbox'],
  ['GET', '/api/api/v1/%64ev/outbox'],
  ['POST', '/api/v1/%64ev/waiting-rooms/1', JSON.stringify({ admitNext: 1000 })],
  ['POST', '/api/api/v1/%64ev/waiting-rooms/1', JSON.stringify({ admitNext: 1000 })],
  ['POST', '/api/v1/%64ev/orders/1/end-payment-time', '{}'],
  ['POST', '/api/v1/%64ev/fixtures/make-staff', JSON.stringify({ userId: 1, role: 'operator' })],
  ['POST', '/api/api/v1/dev/fixtures/make-staff/', JSON.stringify({ userId: 1, role: 'operator' })],
  ['GET', '/api/%6Fpenapi.json'],
  ['GET', '/api/openapi%2Ejson'],
  ['GET', '/api/OPENAPI.JSON'],
  ['GET', '/api/openapi.json/'],
  ['GET', '/api/api/openapi.json'],
  ['GET', '/api/d%6Fcs'],
  ['GET', '/api/DOCS'],
  ['GET', '/api/docs/'],
  ['GET', '/api/api/d%6Fcs'],
  ['POST', '/api/v1/payments/webhooks/%73andbox', '{}'],
  ['POST', '/api/v1/payments/%77ebhooks/s%61ndbox', '{}'],
  ['POST', '/api/api/v1/payments/webhooks/%2573andbox', '{}'],
  ['GET', '/%64ev/mail'],
  ['GET', '/en/%64ev/mail'],
  ['GET', '/en/d%65v/mail'],
  ['GET', '/en/DEV/mail'],
  ['GET', '/zh-HK/%2564ev/mail'],
  ['GET', `/en/s%61ndbox/pay/${SANDBOX_REF}`],
  ['GET', `/s%61ndbox/pay/${SANDBOX_REF}`],
  ['GET', `/en/SANDBOX/pay/${SANDBOX_REF}`],
  ['POST', `/en/%73andbox/pay/${SANDBOX_REF}`, 'decision=approve', 'application/x-www-form-urlencoded'],
];

/** The headers every deployed answer carries (src/lib/http/security.ts). */
const SECURITY_HEADERS: Record<string, RegExp> = {
  'strict-transport-security': /^max-age=63072000; includeSubDomains$/,
  'x-content-type-options': /^nosniff$/,
  'x-frame-options': /^DENY$/,
  'referrer-policy': /^strict-origin-when-cross-origin$/,
  'content-security-policy': /frame-ancestors 'none'/,
};

const CHECKS: Check[] = [
  {
    name: 'home page',
    method: 'GET',
    path: '/en/?channel=partner1',
    status: 200,
    headers: { ...SECURITY_HEADERS, 'set-cookie': /channel=partner1;[^\n]*Secure/ },
  },
  { name: 'API answer', method: 'GET', path: '/api/v1/currency', status: 200, headers: SECURITY_HEADERS },
  {
    name: 'captcha, answer not told',
    method: 'GET',
    path: '/api/v1/user/captcha?timestamp=1',
    status: 200,
    headers: { 'content-type': /^image\/png$/, 'x-dev-captcha-answer': /^$/ },
  },
  { name: 'sandbox hosted page', method: 'GET', path: SANDBOX_PAGE, status: 404 },
  {
    name: 'sandbox decision',
    method: 'POST',
    path: SANDBOX_PAGE,
    body: 'decision=approve',
    type: 'application/x-www-form-urlencoded',
    status: 404,
  },
  { name: 'sandbox webhook', method: 'POST', path: '/api/v1/payments/webhooks/sandbox', body: '{}', type: 'application/json', status: 404 },
  { name: 'dev outbox', method: 'GET', path: '/api/v1/dev/outbox?target=someone@example.com', status: 404 },
  {
    name: 'dev end-payment-time',
    method: 'POST',
    path: '/api/v1/dev/orders/1/end-payment-time',
    body: '{}',
    type: 'application/json',
    status: 404,
  },
  { name: 'dev database', method: 'POST', path: '/api/v1/dev/sql', body: SQL_BODY, type: JSON_TYPE, status: 404 },
  {
    name: 'dev fixtures',
    method: 'POST',
    path: '/api/v1/dev/fixtures/make-staff',
    body: JSON.stringify({ userId: 1 }),
    type: JSON_TYPE,
    status: 404,
  },
  {
    name: 'dev waiting room',
    method: 'POST',
    path: '/api/v1/dev/waiting-rooms/1',
    body: JSON.stringify({ admitNext: 1000 }),
    type: 'application/json',
    status: 404,
  },
  { name: 'dev outbox, doubled prefix', method: 'GET', path: '/api/api/v1/dev/outbox?target=someone@example.com', status: 404 },
  { name: 'dev mail viewer', method: 'GET', path: '/en/dev/mail', status: 404 },
  { name: 'dev mail viewer, no prefix', method: 'GET', path: '/dev/mail?to=someone@example.com', status: 404 },
  { name: 'API document', method: 'GET', path: '/api/openapi.json', status: 404 },
  { name: 'API document page', method: 'GET', path: '/api/docs', status: 404 },
  ...LOCAL_ONLY_SPELLINGS.map(([method, path, body, type]) => ({
    name: 'local-only, respelled',
    method,
    path,
    body,
    type: body === undefined ? undefined : (type ?? JSON_TYPE),
    status: 404,
  })),
  {
    // The bench's round-trip count is a local build's: deployed, the header asks for nothing.
    name: 'D1 round trips not counted',
    method: 'GET',
    path: '/en/about',
    requestHeaders: { 'x-count-round-trips': '1' },
    status: 200,
    headers: { 'x-d1-round-trips': /^$/ },
  },
  {
    // Deployed, Cloudflare's image transformations resize and convert the poster; the build's local files are not named.
    name: 'poster from Cloudflare',
    method: 'GET',
    path: '/en/activity/1000',
    status: 200,
    bodyHas: /srcset="\/cdn-cgi\/image\/width=\d+,format=avif,onerror=redirect\/posters\/activity\/1000\.jpg \d+w/,
    bodyLacks: /\/posters\/activity\/1000-\d+\.(avif|webp)/,
  },
  // PUBLIC_ORIGIN is the server's own address here (127.0.0.1 and the port it got).
  {
    name: 'robots.txt names the sitemap',
    method: 'GET',
    path: '/robots.txt',
    status: 200,
    headers: { 'content-type': /^text\/plain/ },
    bodyHas: /^Sitemap: http:\/\/127\.0\.0\.1:\d+\/sitemap\.xml$/m,
  },
  {
    name: 'sitemap index',
    method: 'GET',
    path: '/sitemap.xml',
    status: 200,
    headers: { 'content-type': /^application\/xml/ },
    bodyHas: /<loc>http:\/\/127\.0\.0\.1:\d+\/sitemaps\/zh-HK-1\.xml<\/loc>/,
  },
  {
    // The poster padded onto a 1200×630 card by Cloudflare's image transformations.
    name: 'link preview on the origin',
    method: 'GET',
    path: '/en/activity/1000',
    status: 200,
    bodyHas:
      /<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/cdn-cgi\/image\/width=1200,height=630,fit=pad,background=%23a3121e,format=jpeg,onerror=redirect\/posters\/activity\/1000\.jpg">/,
  },
  {
    // A lottery's share card (src/lib/edge/share-cards.ts), drawn by the worker, on the origin.
    name: 'share card on the origin',
    method: 'GET',
    path: '/zh-HK/overload-ticket/detail?id=1',
    status: 200,
    bodyHas: /<meta property="og:image" content="http:\/\/127\.0\.0\.1:\d+\/share-cards\/zh-HK\/lottery-1-[0-9a-f]{16}\.jpg">/,
  },
  {
    // The card endpoint reads the lottery deployed as locally: an outdated version leads to the current card.
    name: 'share card, old version',
    method: 'GET',
    path: '/share-cards/zh-HK/lottery-1-0123456789abcdef.jpg',
    status: 302,
    headers: { location: /^\/share-cards\/zh-HK\/lottery-1-[0-9a-f]{16}\.jpg$/ },
  },
];

/** Each piece of local-only code, checked absent from the worker bundle (and still present in its source, so the check can fail). */
function bundleChecks(): Result[] {
  if (!existsSync(path.join(WORKER_DIR, 'wrangler.json')))
    throw new Error('There is no built worker in dist/server: run `npx astro build` first.');
  const files = readdirSync(WORKER_DIR, { recursive: true, encoding: 'utf8' })
    .filter((file) => CODE_FILE.test(file))
    .map((file) => ({ file: path.join('dist', 'server', file), code: readFileSync(path.join(WORKER_DIR, file), 'utf8') }));
  return LOCAL_ONLY_CODE.map(({ source, text }) => {
    const inSource = readFileSync(path.join(ROOT, source), 'utf8').includes(text);
    const holders = files.filter(({ code }) => code.includes(text)).map(({ file }) => file);
    const passed = inSource && holders.length === 0;
    const answered = !inSource
      ? `"${text}" is no longer in ${source}: name a text it has`
      : holders.length > 0
        ? holders.join(', ')
        : 'absent';
    console.log(`${passed ? 'PASS' : 'FAIL'}  ${'bundle without local code'.padEnd(28)} ${source} ("${text}") → ${answered}`);
    return { name: `bundle without ${source}`, text, answered, passed };
  });
}

/** Serves the production build as a deployed copy is configured, on the database in `persistTo`. */
async function serveProduction(persistTo: string, port: number) {
  const baseUrl = `http://127.0.0.1:${port}`;
  const vars = { APP_ENV: 'production', APP_SECRET: 'production-check-secret-0123456789abcdef', PUBLIC_ORIGIN: baseUrl };
  return startServer({
    command: WRANGLER,
    args: serveArgs(persistTo, port, vars),
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
    url: `${baseUrl}/api/v1/currency`,
    timeoutMs: START_TIMEOUT_MS,
  }).catch((error: Error) => {
    rmSync(persistTo, { recursive: true, force: true });
    throw new Error(`the production server did not start: ${error.message}`);
  });
}

/** The second database, as a deployment starts: migrated, not seeded (empty-catalogue.ts), in `persistTo`. */
async function emptyCataloguePass(persistTo: string): Promise<Result[]> {
  const cookie = await prepareEmptyCatalogue(persistTo);
  const port = await freePort();
  const server = await serveProduction(persistTo, port);
  const results: Result[] = [];
  try {
    for (const check of emptyCatalogueChecks(cookie)) results.push(await runCheck(`http://127.0.0.1:${port}`, check));
  } finally {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
  return results;
}

async function main() {
  mkdirSync(path.dirname(summaryFile), { recursive: true });
  rmSync(summaryFile, { force: true });
  const results = bundleChecks();
  const persistTo = path.join(os.tmpdir(), `production-check-${process.pid}`);
  rmSync(persistTo, { recursive: true, force: true });
  migrate(persistTo);
  // The empty pass's database: a copy of the migrated one before the seed, which saves migrating a second.
  const emptyPersistTo = `${persistTo}-empty`;
  rmSync(emptyPersistTo, { recursive: true, force: true });
  cpSync(persistTo, emptyPersistTo, { recursive: true });
  seedIfEmpty(persistTo);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const now = Date.now();
  query(
    persistTo,
    `INSERT INTO sandbox_payments (ref, merchant_ref, method, amount, currency, status, return_url, notify_url, created_at, updated_at)
    VALUES ('${SANDBOX_REF}', 'order-1', 'visa', 38800, 'HKD', 'pending', '${baseUrl}/en/orders/1', '${baseUrl}/api/v1/payments/webhooks/sandbox', ${now}, ${now})`,
  );
  const server = await serveProduction(persistTo, port);
  try {
    for (const check of CHECKS) results.push(await runCheck(baseUrl, check));
    const [ledger] = query<{ status: string }>(persistTo, `SELECT status FROM sandbox_payments WHERE ref = '${SANDBOX_REF}'`);
    const undecided = ledger?.status === 'pending';
    results.push({ name: 'sandbox payment undecided', answered: ledger?.status ?? 'missing', passed: undecided });
    console.log(
      `${undecided ? 'PASS' : 'FAIL'}  ${'sandbox payment undecided'.padEnd(28)} ledger status ${ledger?.status ?? 'missing'} (must be pending)`,
    );
  } finally {
    await server.stop();
    rmSync(persistTo, { recursive: true, force: true });
  }
  results.push(...(await emptyCataloguePass(emptyPersistTo)));
  const failed = results.filter((result) => !result.passed).length;
  writeFileSync(summaryFile, `${JSON.stringify({ passed: results.length - failed, failed, checks: results }, null, 2)}\n`);
  return failed === 0;
}

try {
  process.exitCode = (await main()) ? 0 : 1;
} catch (error) {
  console.error(`Production check could not run: ${(error as Error).message}`);
  process.exitCode = 1;
}
