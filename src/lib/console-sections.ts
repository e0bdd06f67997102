/**
 * The console's sections: where each lives and the staff permission it needs. The console's
 * navigation shows a staff member the sections their roles cover; the tests walk this list to
 * check that a buyer gets 403 on every one.
 */
import type { StaffPermission } from './domain/staff.ts';
import type { MessageKey } from './i18n/keys.ts';

export interface ConsoleSection {
  /** Locale-free path. */
  path: string;
  permission: StaffPermission;
  label: MessageKey;
}

export const CONSOLE_SECTIONS: readonly ConsoleSection[] = [
  { path: '/ops', permission: 'console', label: 'ops.nav.home' },
  { path: '/ops/activities', permission: 'catalogue', label: 'ops.nav.activities' },
  { path: '/ops/venues', permission: 'catalogue', label: 'ops.nav.venues' },
  { path: '/ops/artists', permission: 'catalogue', label: 'ops.nav.artists' },
  { path: '/ops/categories', permission: 'catalogue', label: 'ops.nav.categories' },
  { path: '/ops/images', permission: 'catalogue', label: 'ops.nav.images' },
  { path: '/ops/storefront', permission: 'storefront', label: 'ops.nav.storefront' },
  { path: '/ops/on-sales', permission: 'on_sale', label: 'ops.nav.onSales' },
  { path: '/ops/rates', permission: 'rates', label: 'ops.nav.rates' },
  { path: '/ops/messages', permission: 'messages', label: 'ops.nav.messages' },
  { path: '/ops/staff', permission: 'staff', label: 'ops.nav.staff' },
  { path: '/ops/audit', permission: 'audit', label: 'ops.nav.audit' },
  { path: '/ops/passkeys', permission: 'console', label: 'opsStaff.nav.passkeys' },
];
