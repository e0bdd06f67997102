import { describe, expect, it } from 'vitest';
import { SANDBOX_PROVIDER } from '../../src/lib/config.ts';
import { checkoutProvider } from '../../src/lib/domain/payment-provider-choice.ts';

describe('checkoutProvider', () => {
  it('pays in the sandbox in a local build only', () => {
    expect(checkoutProvider('local')).toBe(SANDBOX_PROVIDER);
    expect(checkoutProvider('production')).toBeNull();
  });
});
