/**
 * Starting a local server and waiting until it answers, for every script that serves the worker (npm start, npm test's
 * gates, the benches, the simulation): spawn it, ask a URL until an answer says it is up, and stop it on failure with
 * the end of its log in the error.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './local-db.ts';

/** A request of the URL asked while the server starts waits at most this long for its answer. */
const PROBE_TIMEOUT_MS = 5000;

/** A server process started by spawnServer or startServer. */
export interface ServerProcess {
  pid: number;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  running(): boolean;
  /** Ends the process and waits for it. */
  stop(): Promise<void>;
  /** The end of its stderr (empty when its output goes to this process's). */
  stderr(): string;
}

/** A server that answered: with the milliseconds from its spawn to the answer that said it was up. */
export interface StartedServer extends ServerProcess {
  startMs: number;
}

export interface StartOptions {
  command: string;
  args: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The URL asked until the server is up. */
  url: string;
  /** Whether the status of an answer means the server is up (any answer by default); throw to fail the start. */
  up?: (status: number) => boolean;
  timeoutMs?: number;
  /** The pause between two requests of `url`. */
  pollMs?: number;
  /** 'inherit' shows the server's output here; 'tail' (the default) keeps the end of its stderr for the errors. */
  output?: 'inherit' | 'tail';
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Spawns a server process in the repository's root. */
export function spawnServer(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  output: 'inherit' | 'tail' = 'tail',
): ServerProcess {
  const child = spawn(command, args, { cwd: ROOT, stdio: output === 'inherit' ? 'inherit' : ['ignore', 'ignore', 'pipe'], env });
  let tail = '';
  child.stderr?.on('data', (chunk) => {
    tail = (tail + chunk).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async () => {
    if (running()) child.kill('SIGTERM');
    await exited;
  };
  if (child.pid === undefined) throw new Error(`${command} could not be started`);
  return { pid: child.pid, exited, running, stop, stderr: () => tail };
}

/** The status `url` answers with, or 0 when nothing answers it. */
async function statusOf(url: string): Promise<number> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.body?.cancel();
    return response.status;
  } catch {
    return 0;
  }
}

/**
 * Spawns a server and resolves once `url` answers with a status `up` accepts. Rejects, having stopped the server, when
 * it exits first, when `up` throws, or after `timeoutMs`; the error ends with the server's log.
 */
export async function startServer({
  command,
  args,
  env,
  url,
  up = () => true,
  timeoutMs = 60_000,
  pollMs = 250,
  output = 'tail',
}: StartOptions): Promise<StartedServer> {
  const started = performance.now();
  const server = spawnServer(command, args, env, output);
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      const status = await statusOf(url);
      if (status !== 0 && up(status)) return { ...server, startMs: performance.now() - started };
      if (!server.running()) throw new Error(`The server exited (code ${await server.exited}) before answering at ${url}`);
      if (Date.now() > deadline) throw new Error(`The server did not answer at ${url} within ${timeoutMs / 1000} s`);
      await pause(pollMs);
    }
  } catch (error) {
    await server.stop();
    const log = server.stderr();
    throw new Error(`${(error as Error).message}${log ? `. Its log:\n${log}` : ''}`);
  }
}

/** Fails when something already answers at `baseUrl`: a server started there would not be the one asked. */
export async function assertNothingAnswers(baseUrl: string, hint: string): Promise<void> {
  if ((await statusOf(baseUrl)) !== 0)
    throw new Error(`Port ${new URL(baseUrl).port} is already in use: stop what runs on ${baseUrl} or ${hint}.`);
}

/** A TCP port on 127.0.0.1 that nothing listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built worker on a freshly seeded database (scripts/e2e-server.ts without its build step) for the gates
 * that run outside Playwright; resolves to { baseUrl, stop } once it answers.
 */
export async function startBuiltServer(port: number): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  if (!existsSync(path.join(ROOT, 'dist', 'server', 'wrangler.json'))) {
    throw new Error('There is no built worker in dist/server: run `LOCAL_BUILD=1 npx astro build` first.');
  }
  const baseUrl = `http://127.0.0.1:${port}`;
  await assertNothingAnswers(baseUrl, 'pick another port');
  const server = await startServer({
    command: process.execPath,
    args: [path.join(ROOT, 'scripts', 'e2e-server.ts')],
    env: { ...process.env, E2E_PORT: String(port), E2E_SKIP_BUILD: '1', WRANGLER_SEND_METRICS: 'false' },
    url: `${baseUrl}/api/v1/currency`,
    timeoutMs: 120_000,
  });
  return { baseUrl, stop: server.stop };
}
