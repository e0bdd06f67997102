/** Where the user is: distances between coordinates, the nearest city, geolocation failures. */

export interface Coordinates {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_KM = 6371.0088;
const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in kilometres (haversine formula). */
export function distanceKm(a: Coordinates, b: Coordinates): number {
  const dLat = toRadians(b.latitude - a.latitude);
  const dLon = toRadians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The place closest to `point`, or null when there is none; ties go to the earlier place. */
export function nearest<T extends Coordinates>(point: Coordinates, places: readonly T[]): T | null {
  let best: T | null = null;
  let bestDistance = Infinity;
  for (const place of places) {
    const distance = distanceKm(point, place);
    if (distance < bestDistance) {
      best = place;
      bestDistance = distance;
    }
  }
  return best;
}

/** Whether a pair of numbers is a position on Earth. */
export function isCoordinates(latitude: number, longitude: number): boolean {
  return Number.isFinite(latitude) && Number.isFinite(longitude) && Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

/**
 * The message of a failed location request (SPEC.md section 8), by the browser's
 * GeolocationPositionError code; `unsupported` when the browser has no geolocation or the
 * position could not be turned into a city.
 */
export type GeolocationFailure = 'denied' | 'unavailable' | 'timeout' | 'unknown' | 'unsupported';

const FAILURE_BY_CODE: Record<number, GeolocationFailure> = { 1: 'denied', 2: 'unavailable', 3: 'timeout' };

/** Maps a GeolocationPositionError code (1 denied, 2 unavailable, 3 timeout) to its failure. */
export function geolocationFailure(code: number): GeolocationFailure {
  return FAILURE_BY_CODE[code] ?? 'unknown';
}
