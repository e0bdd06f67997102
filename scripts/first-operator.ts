/**
 * `npm run first-operator -- --phone +85291234567 [--remote]`: makes the account of a phone number (made
 * when there is none) an operator, in the local database (`npm start`'s, migrated and seeded first as
 * `npm start` does, so that the demo's accounts never collide with it) or, with
 * --remote, the deployed one, through wrangler. The operator then signs in at /ops/sign-in with the
 * code sent to that phone and adds a passkey. Running it again changes nothing.
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { newAccountNames } from '../src/lib/domain/invitations.ts';
import { LOCAL_STATE, migrate, ROOT, seedIfEmpty, WRANGLER } from './local-db.ts';
import { firstOperatorStatements, parseOperatorPhone } from './operator-bootstrap.ts';

const USAGE = 'Usage: npm run first-operator -- --phone +85291234567 [--remote]';

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(1);
}

let options: { phone?: string; remote: boolean };
try {
  options = parseArgs({ options: { phone: { type: 'string' }, remote: { type: 'boolean', default: false } } }).values;
} catch (error) {
  fail((error as Error).message);
}
if (!options.phone) fail('Give the phone number the first operator signs in with.');
const phone = parseOperatorPhone(options.phone);
if (!phone) fail(`${options.phone} is not a phone number with a calling code the sign-in serves (e.g. +85291234567).`);

if (!options.remote) {
  migrate(LOCAL_STATE);
  seedIfEmpty(LOCAL_STATE);
}
const sql = firstOperatorStatements({ phone, now: Date.now(), ...newAccountNames() }).join('\n');
const where = options.remote ? ['--remote'] : ['--local', '--persist-to', LOCAL_STATE];
const out = execFileSync(WRANGLER, ['d1', 'execute', 'DB', ...where, '--config', 'wrangler.toml', '--json', '--command', sql], {
  cwd: ROOT,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
});
const answers = JSON.parse(out) as { results: { userId: number; nickname: string; granted: number }[] }[];
const account = answers.at(-1)?.results[0];
if (!account) fail('The database answered without the account: see wrangler’s output above.');
const database = options.remote ? 'the deployed database' : 'the local database';
console.log(
  account.granted
    ? `Account ${account.userId} (${phone.callingCode} ${phone.number}) is now an operator in ${database}.`
    : `Account ${account.userId} (${phone.callingCode} ${phone.number}) was already an operator in ${database}; nothing changed.`,
);
console.log('Sign in at /ops/sign-in with the code sent to that phone, then add a passkey.');
