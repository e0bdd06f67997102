/**
 * Addresses and the country/area lists of the address and attendee forms (signed in, owner only).
 *
 *   GET    v1/countries              [{ code, name }] every country, named in the request's language
 *   GET    v1/regions/{country}      { level, options: [{ code, name }] } or null when areas are free text
 *   GET    v1/addresses              the user's addresses
 *   POST   v1/addresses              { name, phoneCountryCode, phone, countryCode, province, city, district, street, postcode }
 *   GET    v1/addresses/{id}         one address (404 address_not_found when missing or someone else's)
 *   PUT    v1/addresses/{id}         same body as POST
 *   DELETE v1/addresses/{id}
 *
 * Field problems are 400s with the spec's messages and the field; the 21st address is a 409.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { AREA_MAX_LENGTH, POSTCODE_MAX_LENGTH, STREET_MAX_LENGTH } from '../../domain/address.ts';
import { countryList } from '../../domain/countries.ts';
import { NAME_MAX_LENGTH } from '../../domain/identity.ts';
import { regionChoice } from '../../domain/regions.ts';
import { createAddress, deleteAddress, getAddress, listAddresses, updateAddress } from '../../services/accounts/addresses.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { countryCode, formText, idParam } from '../params.ts';
import { signedIn } from '../session.ts';
import { input } from '../validate.ts';

const addressBody = z.object({
  name: formText(NAME_MAX_LENGTH * 2),
  phoneCountryCode: formText(5),
  phone: formText(20),
  countryCode: formText(2),
  province: formText(AREA_MAX_LENGTH),
  city: formText(AREA_MAX_LENGTH),
  district: formText(AREA_MAX_LENGTH),
  street: formText(STREET_MAX_LENGTH),
  postcode: formText(POSTCODE_MAX_LENGTH),
});
const countryParam = z.object({ country: countryCode });

const doc = describe('Addresses');

export const addressRoutes = new Hono<ApiEnv>()
  .get('/v1/countries', doc.anyone("Every country, named in the request's language"), (c) =>
    c.json(success(countryList(c.get('ctx').locale))),
  )
  .get('/v1/regions/:country', doc.anyone('The areas of a country, or null when they are free text'), input('param', countryParam), (c) => {
    const { country } = c.req.valid('param');
    return c.json(success(regionChoice(country, c.get('ctx').locale)));
  })
  .get('/v1/addresses', doc.user("The user's addresses"), signedIn, async (c) => c.json(success(await listAddresses(c.var.scope))))
  .post('/v1/addresses', doc.user('Adds an address'), signedIn, input('json', addressBody), async (c) =>
    c.json(success(await createAddress(c.var.scope, c.req.valid('json')))),
  )
  .get('/v1/addresses/:id', doc.user("One of the user's addresses"), signedIn, input('param', idParam), async (c) =>
    c.json(success(await getAddress(c.var.scope, c.req.valid('param').id))),
  )
  .put('/v1/addresses/:id', doc.user('Changes an address'), signedIn, input('param', idParam), input('json', addressBody), async (c) =>
    c.json(success(await updateAddress(c.var.scope, c.req.valid('param').id, c.req.valid('json')))),
  )
  .delete('/v1/addresses/:id', doc.user('Deletes an address'), signedIn, input('param', idParam), async (c) => {
    await deleteAddress(c.var.scope, c.req.valid('param').id);
    return c.json(success(null));
  });
