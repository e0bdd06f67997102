/**
 * The city picker's endpoints (SPEC.md section 7): city autocomplete, the city nearest a position,
 * the user's city, saving a chosen city (recorded in the location history), and the device id.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { DomainError } from '../../domain/errors.ts';
import { CITY_KEYWORD_MAX_LENGTH } from '../../config/browse.ts';
import { CITY_COOKIE } from '../../config/request.ts';
import { isCoordinates, type Coordinates } from '../../domain/geo.ts';
import { autocompleteCities, nearestCity, saveUserCity, userCity } from '../../services/catalogue/location.ts';
import type { ApiEnv } from '../context.ts';
import { describe } from '../docs.ts';
import { success } from '../errors.ts';
import { queryId } from '../params.ts';
import { maybeSignedIn } from '../session.ts';
import { input } from '../validate.ts';
import { deviceId, ensureDeviceId, setPreferenceCookie } from '../visitor.ts';

const keywordQuery = z.object({ keyword: z.string().trim().min(1).max(CITY_KEYWORD_MAX_LENGTH) });
const coordinate = (limit: number) =>
  z
    .string()
    .trim()
    .regex(/^-?\d{1,3}(\.\d{1,15})?$/)
    .transform(Number)
    .pipe(z.number().min(-limit).max(limit));
const positionQuery = z.object({ latitude: coordinate(90).optional(), longitude: coordinate(180).optional() });
const saveBody = z.object({ cityId: queryId });

/** The position Cloudflare derives from the client's network, when the platform provides one. */
function networkPosition(request: Request): Coordinates | null {
  const cf = (request as Request & { cf?: { latitude?: string; longitude?: string } }).cf;
  const latitude = Number(cf?.latitude);
  const longitude = Number(cf?.longitude);
  return cf?.latitude && cf.longitude && isCoordinates(latitude, longitude) ? { latitude, longitude } : null;
}

const doc = describe('Location');

export const locationRoutes = new Hono<ApiEnv>()
  .get('/v1/cities/autocompletion', doc.anyone('Cities whose name starts with a keyword'), input('query', keywordQuery), async (c) =>
    c.json(success(await autocompleteCities(c.var.scope, c.req.valid('query').keyword))),
  )
  .get(
    '/v1/cities/currentPosition',
    doc.anyone("The city nearest a position (or the network's)"),
    input('query', positionQuery),
    async (c) => {
      const { latitude, longitude } = c.req.valid('query');
      if ((latitude === undefined) !== (longitude === undefined)) {
        const missing = latitude === undefined ? 'latitude' : 'longitude';
        throw new DomainError('invalid_input', { field: missing }, missing);
      }
      // Without coordinates (the user has not shared a position), the network location stands in.
      const position = latitude !== undefined && longitude !== undefined ? { latitude, longitude } : networkPosition(c.req.raw);
      const city = position ? await nearestCity(c.var.scope, position) : null;
      return c.json(success(city ? { cityId: city.cityId, cityName: city.cityName } : null));
    },
  )
  .get('/v1/cities/userCity', doc.maybe('The city the user or device chose last'), maybeSignedIn, async (c) => {
    const chooser = { userId: c.var.user?.userId ?? null, deviceId: deviceId(c) };
    return c.json(success(await userCity(c.var.scope, chooser)));
  })
  .post(
    '/v1/cities/user/save',
    doc.maybe('Saves the chosen city (and sets its cookie)'),
    input('json', saveBody),
    maybeSignedIn,
    async (c) => {
      const device = ensureDeviceId(c);
      const chooser = { userId: c.var.user?.userId ?? null, deviceId: device.id };
      const city = await saveUserCity(c.var.scope, c.req.valid('json').cityId, chooser);
      setPreferenceCookie(c, CITY_COOKIE, String(city.cityId));
      return c.json(success(city));
    },
  )
  .get('/v1/setDvid', doc.anyone('Gives the browser a device id when it has none'), (c) =>
    c.json(success({ created: ensureDeviceId(c).created })),
  );
