/**
 * What the address form renders (auth route): the address being edited (`?id=`) or a blank one,
 * and the way back to the list, choosing for the order confirmation when it asked. An id that names
 * no address of the user's exits to the 404 page.
 */
import type { AstroGlobal } from 'astro';
import { returnWithChoice, type AddressInput } from '../domain/address.ts';
import { pageI18n } from '../i18n/page.ts';
import { editedRecord } from './not-found.ts';
import { signedInPage } from './signed-in.ts';
import { pathTo } from '../routes.ts';
import { getAddress } from '../services/accounts/addresses.ts';
import { PageExit } from './page-exit.ts';

export async function loadAddressEdit(astro: AstroGlobal) {
  const { t, link } = pageI18n(astro.locals);
  const signedIn = await signedInPage(astro);
  if (signedIn instanceof PageExit) return signedIn;
  const existing = await editedRecord(astro.url.searchParams, (id) => getAddress(signedIn.scope, id));
  if (existing instanceof PageExit) return existing;
  const blank: AddressInput = {
    name: '',
    phoneCountryCode: '+852',
    phone: '',
    countryCode: 'HK',
    province: '',
    city: '',
    district: '',
    street: '',
    postcode: '',
  };
  const initial: AddressInput = existing
    ? {
        name: existing.name,
        phoneCountryCode: existing.phoneCountryCode,
        phone: existing.phone,
        countryCode: existing.countryCode,
        province: existing.province,
        city: existing.city,
        district: existing.district,
        street: existing.street,
        postcode: existing.postcode,
      }
    : blank;
  const returnPath = astro.url.searchParams.get('return');
  const selecting = astro.url.searchParams.get('select') === '1' && returnWithChoice(returnPath, {}) !== null;
  const listHref = link(pathTo('addressListPage')) + (selecting ? `?select=1&return=${encodeURIComponent(returnPath!)}` : '');
  const title = existing ? t('profile.address.editTitle') : t('title.addressCreatePage');
  return {
    existing,
    initial,
    listHref,
    title,
  };
}
