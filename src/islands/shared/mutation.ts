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
  /**
   * One Idempotency-Key per value this gives (a payment method, say), kept for the island's life, a
   * success included: repeating that attempt, even after it succeeded, answers the same result.
   */
  keyPer?: (input: Input) => string;
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

/**
 * The Idempotency-Keys of a mutation's attempts, by scope: a key stays for the retries of its attempt
 * and, unless kept for the island's life (`keyPer`), a success ends the attempt.
 */
export class AttemptKeys {
  private readonly keys = new Map<string, string>();
  private readonly keptAfterSuccess: boolean;
  private readonly newKey: () => string;

  constructor(keptAfterSuccess: boolean, newKey: () => string = newIdempotencyKey) {
    this.keptAfterSuccess = keptAfterSuccess;
    this.newKey = newKey;
  }

  keyFor(scope: string): string {
    let key = this.keys.get(scope);
    if (!key) {
      key = this.newKey();
      this.keys.set(scope, key);
    }
    return key;
  }

  succeeded(scope: string): void {
    if (!this.keptAfterSuccess) this.keys.delete(scope);
  }

  renew(): void {
    this.keys.clear();
  }
}

export function useMutation<Input = void, Result = unknown>(options: MutationOptions<Input, Result>): Mutation<Input> {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const [keys] = useState(() => new AttemptKeys(options.keyPer !== undefined));

  async function run(input: Input) {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    const scope = options.keyPer?.(input) ?? '';
    let result: Result;
    try {
      result = await options.call(input, keys.keyFor(scope));
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
    keys.succeeded(scope);
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
    renewKey: () => keys.renew(),
    release,
  };
}
