/** The server the end-to-end tests run against: a fresh, seeded database and the built worker. */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { build, e2eStateDir, migrate, ROOT, seedIfEmpty, serveArgs, WRANGLER } from './local-db.ts';

const port = Number(process.env.E2E_PORT) || 8788;
const persistTo = e2eStateDir(port);

rmSync(persistTo, { recursive: true, force: true });
migrate(persistTo);
seedIfEmpty(persistTo);
if (!process.env.E2E_SKIP_BUILD) build();

const server = spawn(WRANGLER, serveArgs(persistTo, port), { cwd: ROOT, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
