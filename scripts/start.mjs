/** `npm start`: migrate and seed the local database, build, and serve the built worker on workerd. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { build, migrate, ROOT, seedIfEmpty, serveArgs, waitForServer, WRANGLER } from './local-db.mjs';

const persistTo = path.join(ROOT, '.wrangler', 'state');
const port = Number(process.env.PORT) || 4321;

migrate(persistTo);
console.log(seedIfEmpty(persistTo) ? 'Seeded the demo catalogue.' : 'The local database already has data; not seeding.');
build();

const server = spawn(WRANGLER, serveArgs(persistTo, port), {
  cwd: ROOT,
  stdio: 'inherit',
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

const url = `http://localhost:${port}/`;
await waitForServer(url);
console.log(`\n  Storefront running at ${url}  (Ctrl+C to stop)\n`);
