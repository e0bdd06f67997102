/**
 * The city picker's endpoints (SPEC.md section 7): city autocomplete, the city nearest a position,
 * the user's city, saving a chosen city (recorded in the location history), and the device id.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { CITY_COOKIE, CITY_KEYWORD_MAX_LENGTH } from '../../config.ts';
import { isCoordinates, type Coordinates } from '../../domain/geo.ts';
import { autocompleteCities, nearestCity, saveUserCity, userCity, type Chooser } from '../../services/location.ts';
import type { ApiEnv } from '../context.ts';
import { ApiError, success } from '../errors.ts';
import { deviceId, ensureDeviceId, setPreferenceCookie, signedInUserId } from '../visitor.ts';
import { jsonBody, parseInput } from '../validate.ts';
import { queryId } from '../params.ts';

const keywordQuery = z.object({ keyword: z.string().trim().min(1).max(CITY_KEYWORD_MAX_LENGTH) });
const coordinate = (limit: number) => z.string().trim().regex(/^-?\d{1,3}(\.\d{1,15})?$/).transform(Number).pipe(z.number().min(-limit).max(limit));
const positionQuery = z.object({ latitude: coordinate(90).optional(), longitude: coordinate(180).optional() });
const saveBody = z.object({ cityId: queryId });

/** The position Cloudflare derives from the client's network, when the platform provides one. */
function networkPosition(request: Request): Coordinates | null {
  const cf = (request as Request & { cf?: { latitude?: string; longitude?: string } }).cf;
  const latitude = Number(cf?.latitude);
  const longitude = Number(cf?.longitude);
  return cf?.latitude && cf.longitude && isCoordinates(latitude, longitude) ? { latitude, longitude } : null;
}

async function chooser(c: Context<ApiEnv>, device: string | null): Promise<Chooser> {
  return { userId: await signedInUserId(c), deviceId: device };
}

export const locationRoutes = new Hono<ApiEnv>()
  .get('/v1/cities/autocompletion', async (c) => {
    const { keyword } = parseInput(keywordQuery, c.req.query());
    return c.json(success(await autocompleteCities(c.get('db'), keyword, c.get('ctx').locale)));
  })
  .get('/v1/cities/currentPosition', async (c) => {
    const { latitude, longitude } = parseInput(positionQuery, c.req.query());
    if ((latitude === undefined) !== (longitude === undefined)) {
      const missing = latitude === undefined ? 'latitude' : 'longitude';
      throw new ApiError(400, 'invalid_input', { field: missing }, missing);
    }
    // Without coordinates (the user has not shared a position), the network location stands in.
    const position = latitude !== undefined && longitude !== undefined ? { latitude, longitude } : networkPosition(c.req.raw);
    const city = position ? await nearestCity(c.get('db'), position, c.get('ctx').locale) : null;
    return c.json(success(city ? { cityId: city.cityId, cityName: city.cityName } : null));
  })
  .get('/v1/cities/userCity', async (c) => {
    const ctx = c.get('ctx');
    return c.json(success(await userCity(c.get('db'), await chooser(c, deviceId(c)), ctx.cityId, ctx.locale)));
  })
  .post('/v1/cities/user/save', async (c) => {
    const { cityId } = parseInput(saveBody, await jsonBody(c.req.raw));
    const device = ensureDeviceId(c);
    const city = await saveUserCity(c.get('db'), cityId, await chooser(c, device.id), c.get('ctx').locale, Date.now());
    setPreferenceCookie(c, CITY_COOKIE, String(city.cityId));
    return c.json(success(city));
  })
  .get('/v1/setDvid', (c) => c.json(success({ created: ensureDeviceId(c).created })));
