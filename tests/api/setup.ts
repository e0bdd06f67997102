import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

// Every test file starts from the real migrations; storage is isolated per file.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
