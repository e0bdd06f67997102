/**
 * The city picker (SPEC.md sections 2 and 5): typed text gives autocomplete 100 ms after typing
 * stops; otherwise the location city with "Use my location", the hot cities and every city by
 * first letter. Choosing a city saves it and reloads the page in that city.
 *
 * Rendered by DialogLists once the dialog has opened and its lists have loaded; asks for the
 * network's city then (locateByNetwork). Its controls stay disabled until hydrated, so no tap is lost.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { api, callOptions, unwrap } from '../../lib/browser/api-client.ts';
import { CITY_KEYWORD_MAX_LENGTH, CITY_SEARCH_DELAY_MS } from '../../lib/config/browse.ts';
import { debounce } from '../../lib/domain/debounce.ts';
import type { GeolocationFailure } from '../../lib/domain/geo.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import type { PickerCity } from '../../lib/services/catalogue/header-choices.ts';
import { $locationCity, chooseCity, LocationError, locateByNetwork, locateWithBrowser } from '../../lib/browser/city.ts';
import { failureText } from '../shared/messages.ts';
import { useMutation } from '../shared/mutation.ts';
import LocationFailure from './LocationFailure.tsx';

interface Props {
  cities: PickerCity[];
  hotCityIds: number[];
  currentCityId: number;
  messages: Messages;
}

interface Match {
  cityId: number;
  cityName: string;
}

type Results = { keyword: string; cities: Match[] } | null;

export default function CityPicker({ cities, hotCityIds, currentCityId, messages: m }: Props) {
  const [ready, setReady] = useState(false);
  const [locating, setLocating] = useState(false);
  const [failure, setFailure] = useState<GeolocationFailure | null>(null);
  const [error, setError] = useState<string | null>(null);
  const locationCity = useStore($locationCity);

  useEffect(() => {
    setReady(true);
    void locateByNetwork();
  }, []);

  const { keyword, shown, onType } = useCitySearch(m, setError);

  const choice = useMutation({
    messages: m,
    call: chooseCity,
    busyAfterSuccess: true,
    onSuccess: () => window.location.reload(),
    onFailure: ({ text }) => setError(text),
  });

  function choose(cityId: number) {
    setError(null);
    return choice.run(cityId);
  }

  async function locate() {
    setLocating(true);
    setFailure(null);
    try {
      const city = await locateWithBrowser();
      await choose(city.cityId);
    } catch (cause) {
      if (cause instanceof LocationError) setFailure(cause.failure);
      else setError(failureText(cause, m));
    } finally {
      setLocating(false);
    }
  }

  const disabled = !ready || choice.busy;
  const cityButton = (id: number, name: string) => (
    <button
      type="button"
      className="cp-city"
      onClick={() => choose(id)}
      disabled={disabled}
      aria-current={id === currentCityId ? 'true' : undefined}
    >
      {name}
    </button>
  );
  const byId = new Map(cities.map((city) => [city.id, city]));
  const typed = keyword.trim();

  return (
    <div className="cp">
      <label className="cp-search">
        <span className="visually-hidden">{format(m, 'header.city.search')}</span>
        <input
          type="search"
          value={keyword}
          onChange={(event) => onType(event.target.value)}
          placeholder={format(m, 'header.city.searchPlaceholder')}
          maxLength={CITY_KEYWORD_MAX_LENGTH}
          autoComplete="off"
          enterKeyHint="search"
          disabled={!ready}
        />
      </label>
      {error && (
        <p className="cp-error" role="alert">
          {error}
        </p>
      )}
      {typed ? (
        <section aria-labelledby="cp-results" aria-busy={shown === null}>
          <h3 id="cp-results">{format(m, 'header.city.results')}</h3>
          {shown && shown.length === 0 && (
            <p className="cp-empty">
              {format(m, 'header.city.empty')}
              <span>{format(m, 'header.city.emptyHint')}</span>
            </p>
          )}
          {shown && shown.length > 0 && (
            <ul className="cp-list">
              {shown.map((city) => (
                <li key={city.cityId}>{cityButton(city.cityId, city.cityName)}</li>
              ))}
            </ul>
          )}
        </section>
      ) : (
        <>
          <section aria-labelledby="cp-location">
            <h3 id="cp-location">{format(m, 'header.city.location')}</h3>
            <div className="cp-grid">
              {locationCity && cityButton(locationCity.cityId, locationCity.cityName)}
              <button type="button" className="cp-city cp-locate" onClick={locate} disabled={disabled || locating}>
                {format(m, locating ? 'header.city.locating' : 'header.city.useLocation')}
              </button>
            </div>
            {failure && (
              <LocationFailure
                failure={failure}
                idPrefix="cp"
                retrying={locating}
                onRetry={locate}
                onDismiss={() => setFailure(null)}
                messages={m}
              />
            )}
          </section>
          <section aria-labelledby="cp-hot">
            <h3 id="cp-hot">{format(m, 'header.city.hot')}</h3>
            <ul className="cp-grid">
              {hotCityIds
                .map((id) => byId.get(id))
                .filter((city) => city !== undefined)
                .map((city) => (
                  <li key={city.id}>{cityButton(city.id, city.name)}</li>
                ))}
            </ul>
          </section>
          <AllCities cities={cities} heading={format(m, 'header.city.all')} cityButton={cityButton} />
        </>
      )}
    </div>
  );
}

/** Typed text's autocomplete, asked for once typing stops; `shown` is null until the answer for the text as it is now. */
function useCitySearch(m: Messages, setError: (error: string | null) => void) {
  const [keyword, setKeyword] = useState('');
  const [results, setResults] = useState<Results>(null);
  const pending = useRef<AbortController | null>(null);

  const search = useMemo(
    () =>
      debounce((typed: string) => {
        pending.current?.abort();
        const controller = new AbortController();
        pending.current = controller;
        unwrap(api.v1.cities.autocompletion.$get({ query: { keyword: typed } }, callOptions({ signal: controller.signal })))
          .then((found) => setResults({ keyword: typed, cities: found }))
          .catch((cause) => {
            if (!controller.signal.aborted) setError(failureText(cause, m));
          });
      }, CITY_SEARCH_DELAY_MS),
    [m, setError],
  );

  useEffect(
    () => () => {
      search.cancel();
      pending.current?.abort();
    },
    [search],
  );

  function onType(value: string) {
    setKeyword(value);
    setError(null);
    const typed = value.trim();
    if (typed) {
      search(typed);
    } else {
      search.cancel();
      pending.current?.abort();
      setResults(null);
    }
  }

  const shown = results && results.keyword === keyword.trim() ? results.cities : null;
  return { keyword, shown, onType };
}

interface AllCitiesProps {
  cities: PickerCity[];
  heading: string;
  cityButton: (id: number, name: string) => ReactNode;
}

/** Every city, grouped by first letter (the list comes sorted by it). */
function AllCities({ cities, heading, cityButton }: AllCitiesProps) {
  const groups: [string, PickerCity[]][] = [];
  for (const city of cities) {
    const last = groups.at(-1);
    if (last && last[0] === city.letter) last[1].push(city);
    else groups.push([city.letter, [city]]);
  }
  return (
    <section aria-labelledby="cp-all">
      <h3 id="cp-all">{heading}</h3>
      {groups.map(([letter, list]) => (
        <div key={letter} className="cp-group">
          <h4>{letter}</h4>
          <ul className="cp-list">
            {list.map((city) => (
              <li key={city.id}>{cityButton(city.id, city.name)}</li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
