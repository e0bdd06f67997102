/**
 * End-to-end tests drive Debian's Chromium (Playwright's own browser download does not work
 * here). Installs it with apt-get when missing and we are root; otherwise says how, and fails.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  const canInstall = process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}. Install it with: sudo apt-get install chromium ` +
        '(or set CHROMIUM_PATH to a Chromium binary), then run npm test again.',
    );
  }
  console.log('Installing Debian chromium for the end-to-end tests (apt-get)...');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get finished but ${CHROMIUM} is still missing`);
}
