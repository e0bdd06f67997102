import { describe, expect, it } from 'vitest';
import { distanceKm, geolocationFailure, isCoordinates, nearest } from '../../src/lib/domain/geo.ts';

const hongKong = { name: 'Hong Kong', latitude: 22.3193, longitude: 114.1694 };
const macao = { name: 'Macao', latitude: 22.1987, longitude: 113.5439 };
const taipei = { name: 'Taipei', latitude: 25.033, longitude: 121.5654 };

describe('distanceKm', () => {
  it('measures great-circle distances', () => {
    expect(distanceKm(hongKong, macao)).toBeGreaterThan(60);
    expect(distanceKm(hongKong, macao)).toBeLessThan(70);
    expect(distanceKm(hongKong, taipei)).toBeCloseTo(808, -1);
    expect(distanceKm(taipei, taipei)).toBe(0);
  });

  it('is symmetric and handles the antimeridian', () => {
    expect(distanceKm(hongKong, taipei)).toBeCloseTo(distanceKm(taipei, hongKong), 9);
    expect(distanceKm({ latitude: 0, longitude: 179.5 }, { latitude: 0, longitude: -179.5 })).toBeLessThan(112);
  });
});

describe('nearest', () => {
  const cities = [hongKong, macao, taipei];

  it('picks the closest place', () => {
    expect(nearest({ latitude: 22.2, longitude: 113.55 }, cities)?.name).toBe('Macao');
    expect(nearest({ latitude: 24.9, longitude: 121.3 }, cities)?.name).toBe('Taipei');
    expect(nearest({ latitude: 22.28, longitude: 114.16 }, cities)?.name).toBe('Hong Kong');
  });

  it('keeps the earlier place on a tie, and has nothing for no places', () => {
    expect(
      nearest(hongKong, [
        { ...hongKong, name: 'first' },
        { ...hongKong, name: 'second' },
      ])?.name,
    ).toBe('first');
    expect(nearest(hongKong, [])).toBeNull();
  });
});

describe('isCoordinates', () => {
  it('accepts positions on Earth only', () => {
    expect(isCoordinates(22.3, 114.2)).toBe(true);
    expect(isCoordinates(-90, 180)).toBe(true);
    expect(isCoordinates(90.1, 0)).toBe(false);
    expect(isCoordinates(0, -180.1)).toBe(false);
    expect(isCoordinates(Number.NaN, 0)).toBe(false);
  });
});

describe('geolocationFailure', () => {
  it('maps the GeolocationPositionError codes to the spec messages', () => {
    expect(geolocationFailure(1)).toBe('denied');
    expect(geolocationFailure(2)).toBe('unavailable');
    expect(geolocationFailure(3)).toBe('timeout');
    expect(geolocationFailure(0)).toBe('unknown');
    expect(geolocationFailure(42)).toBe('unknown');
  });
});
