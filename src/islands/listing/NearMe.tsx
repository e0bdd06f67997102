/**
 * "Near me" in a listing's city filter: the browser position by the SPEC's geolocation rules (high
 * accuracy, 5 s timeout, no cache; browser/city.ts, as the header's "Use my location"), then the same
 * listing in the nearest city. Failures read as in the city picker. It sits in the closed city panel
 * and hydrates (client:visible) when the panel opens, so the listing's first load carries none of it.
 */
import { useEffect, useState } from 'react';
import type { GeolocationFailure } from '../../lib/domain/geo.ts';
import { CITY_PARAM } from '../../lib/domain/listing-url.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { LocationError, locateWithBrowser } from '../../lib/browser/city.ts';
import LocationFailure from '../header/LocationFailure.tsx';
import { failureText } from '../shared/messages.ts';

interface Props {
  /** The listing's URL (locale prefix included, first page); the nearest city replaces its city. */
  href: string;
  messages: Messages;
}

export default function NearMe({ href, messages: m }: Props) {
  const [ready, setReady] = useState(false);
  const [locating, setLocating] = useState(false);
  const [failure, setFailure] = useState<GeolocationFailure | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => setReady(true), []);

  async function locate() {
    setLocating(true);
    setFailure(null);
    setError(null);
    try {
      const city = await locateWithBrowser();
      const url = new URL(href, window.location.origin);
      url.searchParams.set(CITY_PARAM, String(city.cityId));
      window.location.assign(url);
    } catch (cause) {
      if (cause instanceof LocationError) setFailure(cause.failure);
      else setError(failureText(cause, m));
      setLocating(false);
    }
  }

  return (
    <div className="near-me">
      <button type="button" className="near-me-button" onClick={locate} disabled={!ready || locating}>
        {format(m, locating ? 'listing.city.locating' : 'listing.city.nearMe')}
      </button>
      {error && (
        <p className="cp-error" role="alert">
          {error}
        </p>
      )}
      {failure && (
        <LocationFailure
          failure={failure}
          idPrefix="near-me"
          retrying={locating}
          onRetry={locate}
          onDismiss={() => setFailure(null)}
          messages={m}
        />
      )}
    </div>
  );
}
