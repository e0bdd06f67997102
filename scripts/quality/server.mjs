/**
 * Starts the built worker on a freshly seeded database (scripts/e2e-server.mjs without its build
 * step) for the gates that run outside Playwright. Fails with the reason when it cannot start.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT, spawnServer, waitForServer } from '../local-db.mjs';

const START_TIMEOUT_MS = 120_000;

async function answers(url) {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2000) });
    return true;
  } catch {
    return false;
  }
}

/** Resolves to { baseUrl, stop } once the server answers; rejects if it exits or times out first. */
export async function startBuiltServer(port) {
  if (!existsSync(path.join(ROOT, 'dist', 'server', 'wrangler.json'))) {
    throw new Error('There is no built worker in dist/server: run `LOCAL_BUILD=1 npx astro build` first.');
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  if (await answers(baseUrl)) throw new Error(`Port ${port} is already in use: stop what runs on ${baseUrl} or pick another port.`);
  const { exited, stop, stderr } = spawnServer(process.execPath, [path.join(ROOT, 'scripts', 'e2e-server.mjs')], {
    ...process.env,
    E2E_PORT: String(port),
    E2E_SKIP_BUILD: '1',
    WRANGLER_SEND_METRICS: 'false',
  });

  const early = exited.then((code) => {
    throw new Error(`The server exited (code ${code}) before answering on ${baseUrl}`);
  });
  try {
    await Promise.race([waitForServer(`${baseUrl}/api/v1/currency`, START_TIMEOUT_MS), early]);
  } catch (error) {
    await stop();
    throw new Error(`${error.message}. Its log:\n${stderr()}`);
  }
  early.catch(() => {});
  return { baseUrl, stop };
}
