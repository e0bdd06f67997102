/**
 * The city the user browses and the city where they are (SPEC.md section 3: local storage keys
 * currentCity, locationCity, authorizedPosition). The chosen city is saved on the server, which
 * records it in the location history and sets the `cityId` cookie that pages and every call use.
 */
import { atom, onMount } from 'nanostores';
import { api, unwrap } from './api-client.ts';
import { GEOLOCATION_OPTIONS } from '../config/browse.ts';
import { geolocationFailure, type Coordinates, type GeolocationFailure } from '../domain/geo.ts';

export interface StoredCity {
  cityId: number;
  cityName: string;
}

const CURRENT_CITY_KEY = 'currentCity';
const LOCATION_CITY_KEY = 'locationCity';
const AUTHORIZED_POSITION_KEY = 'authorizedPosition';

function readCity(key: string): StoredCity | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(key) ?? 'null') as Partial<StoredCity> | null;
    return parsed && typeof parsed.cityId === 'number' && typeof parsed.cityName === 'string'
      ? { cityId: parsed.cityId, cityName: parsed.cityName }
      : null;
  } catch {
    return null;
  }
}

/** Where the user is, as a city: from the browser position or, failing that, the network. */
export const $locationCity = atom<StoredCity | null>(null);
// Read on first use, not at import: server rendering has no local storage, and hydration must match it.
onMount($locationCity, () => {
  $locationCity.set(readCity(LOCATION_CITY_KEY));
});

function rememberLocationCity(city: StoredCity): void {
  localStorage.setItem(LOCATION_CITY_KEY, JSON.stringify(city));
  $locationCity.set(city);
}

/** Forgets the location city (its name is in the old language after a language change). */
export function forgetLocationCity(): void {
  localStorage.removeItem(LOCATION_CITY_KEY);
  $locationCity.set(null);
}

/** Saves the chosen city on the server (cookie and location history) and in local storage. */
export async function chooseCity(cityId: number): Promise<StoredCity> {
  const city = await unwrap(api.v1.cities.user.save.$post({ json: { cityId } }));
  const stored = { cityId: city.cityId, cityName: city.cityName };
  localStorage.setItem(CURRENT_CITY_KEY, JSON.stringify(stored));
  return stored;
}

/** A failed attempt to locate the user; `failure` picks the message of SPEC.md section 8. */
export class LocationError extends Error {
  readonly failure: GeolocationFailure;

  constructor(failure: GeolocationFailure) {
    super(failure);
    this.failure = failure;
  }
}

function browserPosition(): Promise<Coordinates> {
  return new Promise((resolve, reject) => {
    if (!('geolocation' in navigator)) {
      reject(new LocationError('unsupported'));
      return;
    }
    navigator.geolocation.getCurrentPosition(
      ({ coords }) => resolve({ latitude: coords.latitude, longitude: coords.longitude }),
      (error) => reject(new LocationError(geolocationFailure(error.code))),
      GEOLOCATION_OPTIONS,
    );
  });
}

/**
 * "Use my location": the browser position (high accuracy, 5 s timeout, no cache), then the
 * nearest city, remembered as the location city. Throws a LocationError.
 */
export async function locateWithBrowser(): Promise<StoredCity> {
  let position: Coordinates;
  try {
    position = await browserPosition();
  } catch (error) {
    if (error instanceof LocationError && error.failure === 'denied') localStorage.removeItem(AUTHORIZED_POSITION_KEY);
    throw error;
  }
  localStorage.setItem(AUTHORIZED_POSITION_KEY, 'true');
  const query = { latitude: String(position.latitude), longitude: String(position.longitude) };
  const city = await unwrap(api.v1.cities.currentPosition.$get({ query })).catch(() => null);
  if (!city) throw new LocationError('unsupported');
  rememberLocationCity(city);
  return city;
}

/**
 * When no city is stored and the user has not shared a position, the server locates the request by
 * its network and the result becomes the location city the picker offers. The picker asks when it
 * opens (SPEC.md has the home page ask at load: the picker is the only place that shows the answer,
 * and asking there costs the first load nothing). A failed lookup is ignored (SPEC.md section 8).
 */
export async function locateByNetwork(): Promise<void> {
  if (localStorage.getItem(CURRENT_CITY_KEY) !== null || localStorage.getItem(AUTHORIZED_POSITION_KEY) !== null) return;
  const city = await unwrap(api.v1.cities.currentPosition.$get({ query: {} })).catch(() => null);
  if (city) rememberLocationCity(city);
}
