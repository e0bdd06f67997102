/** `npm start`: migrate and seed the local database, build, and serve the built worker on workerd. */
import { build, LOCAL_STATE as persistTo, migrate, seedIfEmpty, serveArgs, WRANGLER } from './local-db.ts';
import { startServer } from './server.ts';

const port = Number(process.env.PORT) || 4321;

migrate(persistTo);
console.log(seedIfEmpty(persistTo) ? 'Seeded the demo catalogue.' : 'The local database already has data; not seeding.');
build();

const url = `http://localhost:${port}/`;
const server = await startServer({
  command: WRANGLER,
  args: serveArgs(persistTo, port),
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  url,
  output: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => void server.stop());
server.exited.then((code) => process.exit(code ?? 0));
console.log(`\n  Storefront running at ${url}  (Ctrl+C to stop)\n`);
