/**
 * The search box of the search page (SPEC.md sections 4 and 5): an empty box shows the recent
 * searches (with a clear-history confirmation), typing shows suggestions SUGGESTION_DELAY_MS after
 * it stops (never while a request runs), and submitting searches the trimmed text, or the hot word
 * the page was opened with when the box is empty; an empty box without one does nothing. Before
 * hydration (or without JavaScript) the form submits `q`, which the page redirects to the search.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { api, unwrap, type ApiData } from '../../lib/browser/api-client.ts';
import { SUGGESTION_DELAY_MS } from '../../lib/config/browse.ts';
import { createSuggestScheduler } from '../../lib/domain/debounce.ts';
import { MAX_KEYWORD_LENGTH, searchUrl } from '../../lib/domain/listing-url.ts';
import { format, type Messages } from '../../lib/i18n/messages.ts';
import { $searchHistory, clearSearchHistory, loadSearchHistory, recordSearch } from '../../lib/browser/search.ts';
import './listing.css';

type Suggestion = ApiData<typeof api.v1.activities.suggest.$get>[number];
interface Props {
  /** The keyword of the results shown below, empty on the bare search page. */
  keyword: string;
  /** The hot word the page was opened with (`?placeholder=`): searched when the box is left empty. */
  hotWord?: string;
  /** Locale prefix of links (`/zh-HK` or empty). */
  prefix: string;
  messages: Messages;
}

export default function SearchBox({ keyword, hotWord, prefix, messages: m }: Props) {
  const history = useStore($searchHistory);
  const [text, setText] = useState(keyword);
  const [suggestions, setSuggestions] = useState<{ text: string; items: Suggestion[] } | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const scheduler = useMemo(
    () =>
      createSuggestScheduler<Suggestion[]>({
        delayMs: SUGGESTION_DELAY_MS,
        load: (typed) => unwrap(api.v1.activities.suggest.$get({ query: { input: typed, ignoreCityId: 'true' } })),
        onResult: (typed, items) => setSuggestions({ text: typed, items }),
        // Suggestions are a convenience: a failed one leaves the box as it is.
        onError: () => setSuggestions(null),
      }),
    [],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration: it adopts what was typed before it and cancels pending suggestions on unmount.
  useEffect(() => {
    loadSearchHistory();
    // Text typed before hydration counts as typed; an empty search page puts the caret in the box.
    const box = input.current;
    if (box && box.value !== keyword) type(box.value);
    if (box && keyword === '' && document.activeElement === document.body) box.focus();
    return () => scheduler.cancel();
  }, []);

  function type(value: string) {
    setText(value);
    const typed = value.trim();
    scheduler.input(typed === keyword ? '' : typed);
    if (typed === '' || typed === keyword) setSuggestions(null);
  }

  function go(value: string) {
    recordSearch(value);
    window.location.assign(`${prefix}${searchUrl(value, hotWord)}`);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = text.trim() || hotWord || '';
    if (value) go(value);
  }

  const typed = text.trim();
  const shown = suggestions && suggestions.text === typed && suggestions.items.length > 0 ? suggestions.items : null;

  return (
    <div className="search">
      {/* biome-ignore lint/a11y/useSemanticElements: a form with role search is the landmark every screen reader announces; the newer <search> element adds nothing here. */}
      <form className="search-form" role="search" action={`${prefix}${searchUrl('', hotWord)}`} method="get" onSubmit={submit}>
        <input
          ref={input}
          type="search"
          name="q"
          defaultValue={keyword}
          placeholder={hotWord || format(m, 'listing.search.placeholder')}
          aria-label={format(m, 'listing.search.label')}
          maxLength={MAX_KEYWORD_LENGTH}
          autoComplete="off"
          enterKeyHint="search"
          onInput={(event) => type(event.currentTarget.value)}
        />
        {hotWord && <input type="hidden" name="placeholder" value={hotWord} />}
        <button type="submit">{format(m, 'listing.search.submit')}</button>
      </form>
      {shown && (
        <ul className="search-suggestions" aria-label={format(m, 'listing.search.suggestions')}>
          {shown.map((item) => (
            <li key={item.id}>
              <a href={`${prefix}/activity/${item.id}`} onClick={() => recordSearch(typed)}>
                {item.name}
                {item.match !== item.name && <span className="search-match">{item.match}</span>}
              </a>
            </li>
          ))}
        </ul>
      )}
      {typed === '' && history.length > 0 && (
        <section className="search-history" aria-labelledby="search-history-heading">
          <div className="search-history-head">
            <h2 id="search-history-heading">{format(m, 'listing.search.recent')}</h2>
            <button
              type="button"
              className="search-history-clear"
              aria-label={format(m, 'listing.search.clear')}
              onClick={() => dialog.current?.showModal()}
            >
              <svg aria-hidden="true" width="18" height="18" viewBox="0 0 24 24">
                <path fill="currentColor" d="M9 3h6l1 2h4v2H4V5h4l1-2Zm-3 6h12l-1 12H7L6 9Zm4 2v8h2v-8h-2Zm4 0v8h2v-8h-2Z" />
              </svg>
            </button>
          </div>
          <ul className="search-chips">
            {history.map((record) => (
              <li key={record.value}>
                <a href={`${prefix}${searchUrl(record.value, hotWord)}`} onClick={() => recordSearch(record.value)}>
                  {record.value}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <dialog ref={dialog} className="search-dialog" aria-labelledby="search-clear-question">
        <p id="search-clear-question">{format(m, 'listing.search.clearConfirm')}</p>
        <button type="button" className="search-dialog-cancel" onClick={() => dialog.current?.close()}>
          {format(m, 'listing.search.cancel')}
        </button>
        <button
          type="button"
          onClick={() => {
            clearSearchHistory();
            dialog.current?.close();
          }}
        >
          {format(m, 'listing.search.confirm')}
        </button>
      </dialog>
    </div>
  );
}
