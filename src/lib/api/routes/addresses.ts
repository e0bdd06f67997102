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
import { createAddress, deleteAddress, getAddress, listAddresses, updateAddress } from '../../services/addresses.ts';
import { requireUser } from '../../services/auth.ts';
import type { ApiEnv } from '../context.ts';
import { success } from '../errors.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { idParam } from '../params.ts';

const text = (max: number) => z.string().max(max).default('');

const addressBody = z.object({
  name: text(NAME_MAX_LENGTH * 2),
  phoneCountryCode: text(5),
  phone: text(20),
  countryCode: text(2),
  province: text(AREA_MAX_LENGTH),
  city: text(AREA_MAX_LENGTH),
  district: text(AREA_MAX_LENGTH),
  street: text(STREET_MAX_LENGTH),
  postcode: text(POSTCODE_MAX_LENGTH),
});
const countryParam = z.object({ country: z.string().regex(/^[A-Z]{2}$/) });

export const addressRoutes = new Hono<ApiEnv>()
  .get('/v1/countries', (c) => c.json(success(countryList(c.get('ctx').locale))))
  .get('/v1/regions/:country', (c) => {
    const { country } = parseInput(countryParam, c.req.param());
    return c.json(success(regionChoice(country, c.get('ctx').locale)));
  })
  .get('/v1/addresses', async (c) => {
    const user = await requireUser(c);
    return c.json(success(await listAddresses(c.get('db'), user.userId, c.get('ctx').locale)));
  })
  .post('/v1/addresses', async (c) => {
    const user = await requireUser(c);
    const input = parseInput(addressBody, await jsonBody(c.req.raw));
    return c.json(success(await createAddress(c.get('db'), user.userId, input, c.get('ctx').locale)));
  })
  .get('/v1/addresses/:id', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    return c.json(success(await getAddress(c.get('db'), user.userId, id, c.get('ctx').locale)));
  })
  .put('/v1/addresses/:id', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    const input = parseInput(addressBody, await jsonBody(c.req.raw));
    return c.json(success(await updateAddress(c.get('db'), user.userId, id, input, c.get('ctx').locale)));
  })
  .delete('/v1/addresses/:id', async (c) => {
    const user = await requireUser(c);
    const { id } = parseInput(idParam, c.req.param());
    await deleteAddress(c.get('db'), user.userId, id);
    return c.json(success(null));
  });
