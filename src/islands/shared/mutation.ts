/**
 * The one way an island changes data through the API: busy while the call runs, an Idempotency-Key
 * per attempt, a failure turned into its text and the field it names, and a session that ended on
 * the server (401) sent to login with this page (path and query) to come back to (SPEC.md section 8).
 */
import { useCallback, useRef, useState } from 'react';
import { ApiClientError, newIdempotencyKey } from '../../lib/browser/api-client.ts';
import { DEFAULT_LOCALE, isLocale, localizedPath } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/messages.ts';
import { failedField, failureText } from './messages.ts';

/** A failed call as an island shows it. */
export interface Failure {
  /** The server's localized message, or the network or timeout text. */
  text: string;
  /** The input field the server named, if any. */
  field: string | null;
  errorCode: string | null;
  status: number;
  cause: unknown;
}

/** The login page in the page's language, with `redirect` back to `pathname` + `search` (the login page checks it is ours). */
export function loginHref(pathname: string, search: string, lang: string): string {
  return `${localizedPath('/login', isLocale(lang) ? lang : DEFAULT_LOCALE)}?redirect=${encodeURIComponent(pathname + search)}`;
}

/** Leaves for login; the API client has already cleared the session's stored user. */
export function goToLogin(): void {
  window.location.assign(loginHref(window.location.pathname, window.location.search, document.documentElement.lang));
}

export interface MutationOptions<Input, Result> {
  /** For the network and timeout texts. */
  messages: Messages;
  /** The call. `idempotencyKey` stays the same for retries of one attempt, until a call succeeds or `renewKey()`. */
  call: (input: Input, idempotencyKey: string) => Promise<Result>;
  onSuccess?: (result: Result, input: Input) => void;
  onFailure?: (failure: Failure, input: Input) => void;
  /** Stays busy after a success, e.g. while the browser leaves for the next page. */
  busyAfterSuccess?: boolean;
}

export interface Mutation<Input> {
  busy: boolean;
  /** Runs the call, unless one is running. */
  run: (input: Input) => Promise<void>;
  /** Starts a new attempt: the next call gets a fresh Idempotency-Key. */
  renewKey: () => void;
  /** Ends the busy state a success kept (`busyAfterSuccess`): the page came back from the browser's back-forward cache. */
  release: () => void;
}

export function useMutation<Input = void, Result = unknown>(options: MutationOptions<Input, Result>): Mutation<Input> {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const key = useRef<string | null>(null);

  async function run(input: Input) {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    key.current ??= newIdempotencyKey();
    let result: Result;
    try {
      result = await options.call(input, key.current);
    } catch (cause) {
      running.current = false;
      if (cause instanceof ApiClientError && cause.status === 401) return goToLogin();
      setBusy(false);
      const answered = cause instanceof ApiClientError ? cause : null;
      options.onFailure?.(
        {
          text: failureText(cause, options.messages),
          field: failedField(cause),
          errorCode: answered?.errorCode ?? null,
          status: answered?.status ?? 0,
          cause,
        },
        input,
      );
      return;
    }
    key.current = null;
    running.current = false;
    if (!options.busyAfterSuccess) setBusy(false);
    options.onSuccess?.(result, input);
  }

  // Stable, so an effect may depend on it.
  const release = useCallback(() => {
    running.current = false;
    setBusy(false);
  }, []);

  return {
    busy,
    run,
    renewKey: () => {
      key.current = null;
    },
    release,
  };
}
