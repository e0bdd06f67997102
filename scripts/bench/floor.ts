/**
 * `npm run bench:floor`: what this machine's local server costs before any page code runs, the floor
 * under the rendered-page rows (docs/rendered-pages.md "The floor"). It serves a worker of a
 * few lines under the same wrangler, settings and static file as the bench, and measures with the
 * bench's load (10 connections, 2 s warm-up, 8 s) each step a rendered miss must take, rendering
 * nothing: the static file (the ceiling), a constant page from the worker, one D1 batch of two
 * trivial selects, storing a 40 KB page in the Cache API under a key no request shares, and the last
 * two together (a miss without a render). Rounds alternate the targets; prints the median of the
 * rounds and each target's share of the static file's rate.
 *
 *   npm run bench:floor                  3 rounds on port 8795
 *   FLOOR_ROUNDS=5 FLOOR_PORT=8795
 */
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Request } from 'autocannon';
import { MEASURING_ENV, ROOT, WRANGLER } from '../local-db.ts';
import { startServer } from '../server.ts';
import { machine } from './measurements.ts';

const CONNECTIONS = 10;
const WARMUP_S = 2;
const DURATION_S = 8;
const ROUNDS = Number(process.env.FLOOR_ROUNDS) || 3;
const port = Number(process.env.FLOOR_PORT) || 8795;
const baseUrl = `http://127.0.0.1:${port}`;
const dir = path.join(ROOT, '.wrangler', 'bench-floor');

// The page stored is about the size of the home page's HTML; each D1 statement reads no table.
const WORKER = `
const page = '<!doctype html><title>floor</title>' + '<p>lorem ipsum dolor sit amet</p>'.repeat(1200);
const html = { 'content-type': 'text/html; charset=utf-8' };
const trivialBatch = (db) => db.batch([db.prepare('SELECT 1 AS a'), db.prepare('SELECT 2 AS b')]);
function stored(ctx, url, body) {
  const response = new Response(body, { headers: { ...html, 'cache-control': 'public, s-maxage=60' } });
  ctx.waitUntil(caches.default.put(new Request('https://floor.local/' + url.search), response.clone()));
  return response;
}
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/constant') return new Response(page, { headers: html });
    if (url.pathname === '/d1') return new Response(page + JSON.stringify((await trivialBatch(env.DB)).length), { headers: html });
    if (url.pathname === '/store') return stored(ctx, url, page);
    if (url.pathname === '/miss') return stored(ctx, url, page + JSON.stringify((await trivialBatch(env.DB)).length));
    return new Response(null, { status: 404 });
  },
};`;

const TARGETS: Target[] = [
  { name: 'static file', path: '/favicon.svg' },
  { name: 'constant page from the worker', path: '/constant' },
  { name: 'one D1 batch', path: '/d1' },
  { name: 'a 40 KB page stored in the Cache API', path: '/store', unique: true },
  { name: 'D1 batch and Cache API store: a miss that renders nothing', path: '/miss', unique: true },
];

function writeWorker() {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, 'public'), { recursive: true });
  cpSync(path.join(ROOT, 'public', 'favicon.svg'), path.join(dir, 'public', 'favicon.svg'));
  writeFileSync(path.join(dir, 'worker.js'), WORKER);
  writeFileSync(
    path.join(dir, 'wrangler.json'),
    JSON.stringify({
      name: 'bench-floor',
      main: 'worker.js',
      compatibility_date: '2026-10-12',
      assets: { directory: 'public' },
      d1_databases: [{ binding: 'DB', database_name: 'bench-floor', database_id: '00000000-0000-0000-0000-0000000f1002' }],
    }),
  );
}

let unique = 0;
/** A request the floor measures; `unique` asks each time with a query no other request has. */
interface Target {
  name: string;
  path: string;
  unique?: boolean;
}

async function requestsPerSecond(target: Target, durationS: number): Promise<number> {
  const requests: Request[] | undefined = target.unique
    ? [{ setupRequest: (request) => ({ ...request, path: `${target.path}?n=${++unique}` }) }]
    : undefined;
  const result = await autocannon({ url: `${baseUrl}${target.path}`, connections: CONNECTIONS, duration: durationS, requests });
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0) throw new Error(`${target.name}: errors under load`);
  return result.requests.average;
}

async function main() {
  writeWorker();
  const args = ['dev', '--config', path.join(dir, 'wrangler.json'), '--persist-to', path.join(dir, 'state'), '--port', String(port)];
  const server = await startServer({
    command: WRANGLER,
    args: [...args, '--ip', '127.0.0.1'],
    env: MEASURING_ENV,
    url: `${baseUrl}/constant`,
    up: (status) => status === 200,
    pollMs: 100,
  });
  try {
    const rates = new Map(TARGETS.map((target): [string, number[]] => [target.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of TARGETS) {
        await requestsPerSecond(target, WARMUP_S);
        rates.get(target.name)?.push(await requestsPerSecond(target, DURATION_S));
      }
    }
    const median = (values: number[] = []) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    const ceiling = median(rates.get('static file'));
    const { cpus, model } = machine();
    const load = os.loadavg().map((value) => value.toFixed(2));
    console.log(
      `${new Date().toISOString()}, ${cpus} CPUs (${model}), load average ${load.join(', ')} at the end; median of ${ROUNDS} rounds:`,
    );
    console.log('| What | req/s | share of the static file |\n| --- | ---: | ---: |');
    for (const target of TARGETS) {
      const rate = median(rates.get(target.name));
      console.log(`| ${target.name} | ${Math.round(rate)} | ${Math.round((rate / ceiling) * 100)}% |`);
    }
  } finally {
    await server.stop();
  }
}

await main();
