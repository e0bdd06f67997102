/**
 * What the address list renders (auth route): the user's saved addresses, and, when the order
 * confirmation asks for a choice, where the choice goes back to.
 */
import type { AstroGlobal } from 'astro';
import { returnWithChoice } from '../domain/address.ts';
import { messagesFor } from '../i18n/index.ts';
import { pageI18n } from '../i18n/page.ts';
import { signedInPage } from './signed-in.ts';
import { pathTo } from '../routes.ts';
import { listAddresses } from '../services/accounts/addresses.ts';
import { PageExit } from './page-exit.ts';

export async function loadAddressList(astro: AstroGlobal) {
  const { locale, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const addresses = await listAddresses(signedIn.scope);
  const returnPath = astro.url.searchParams.get('return');
  const selecting = astro.url.searchParams.get('select') === '1' && returnWithChoice(returnPath, {}) !== null;
  // The create page comes back here, still choosing, once an address is saved.
  const carried = selecting ? `select=1&return=${encodeURIComponent(returnPath!)}` : '';
  const createHref = (id?: number) => {
    const query = [id ? `id=${id}` : '', carried].filter(Boolean).join('&');
    return link(pathTo('addressCreatePage')) + (query ? `?${query}` : '');
  };
  const deleteMessages = messagesFor(locale, ['profile.delete', 'error.network', 'error.timeout']);
  return {
    addresses,
    createHref,
    deleteMessages,
    returnPath,
    selecting,
  };
}
