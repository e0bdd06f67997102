/** How a buyer finds the venue: a map link that opens in the map service people use there. */

export interface VenuePlace {
  name: string;
  longitude: number;
  latitude: number;
  /** Venues in Mainland China open in Amap, which works there; elsewhere Google Maps. */
  inMainlandChina: boolean;
}

/** A map link to the venue's coordinates (WGS84, as stored), labelled with its name where the service allows. */
export function venueMapUrl(venue: VenuePlace): string {
  if (venue.inMainlandChina) {
    const params = new URLSearchParams({
      position: `${venue.longitude},${venue.latitude}`,
      name: venue.name,
      coordinate: 'wgs84',
      callnative: '0',
    });
    return `https://uri.amap.com/marker?${params}`;
  }
  const params = new URLSearchParams({ api: '1', query: `${venue.latitude},${venue.longitude}` });
  return `https://www.google.com/maps/search/?${params}`;
}
