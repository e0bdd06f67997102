import { describe, expect, it } from 'vitest';
import { PASSWORD_ITERATIONS } from '../../src/lib/config/accounts.ts';
import { hashPassword, verifyPassword } from '../../src/lib/domain/password.ts';

describe('passwords in workerd', () => {
  it('hash with the production PBKDF2 ceiling of 100,000 iterations and verify only the right password', async () => {
    const stored = await hashPassword('Tickets2026');
    expect(stored.iterations).toBe(PASSWORD_ITERATIONS);
    expect(PASSWORD_ITERATIONS).toBe(100_000);
    expect(await verifyPassword('Tickets2026', stored)).toBe(true);
    expect(await verifyPassword('tickets2026', stored)).toBe(false);
  });

  it('never derives a stored count above the ceiling, which production Workers would refuse', async () => {
    const stored = await hashPassword('Tickets2026');
    expect(await verifyPassword('Tickets2026', { ...stored, iterations: PASSWORD_ITERATIONS + 1 })).toBe(false);
    expect(await verifyPassword('Tickets2026', { ...stored, iterations: 0 })).toBe(false);
  });
});
