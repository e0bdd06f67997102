/**
 * Waiting for typing to stop (SPEC.md section 5): a plain debounce (city autocomplete after 100 ms)
 * and the suggestion scheduler of the search box (300 ms, never while a request runs). Timers are
 * injected so the rules are tested without waiting.
 */

export interface Timers {
  setTimeout: (callback: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export type Debounced<A extends unknown[]> = ((...args: A) => void) & { cancel: () => void };

/** Calls `fn` with the latest arguments once `ms` passed without another call; `cancel` drops a pending call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number, timers: Timers = realTimers): Debounced<A> {
  let timer: unknown = null;
  const cancel = () => {
    if (timer !== null) timers.clearTimeout(timer);
    timer = null;
  };
  const debounced = (...args: A) => {
    cancel();
    timer = timers.setTimeout(() => {
      timer = null;
      fn(...args);
    }, ms);
  };
  return Object.assign(debounced, { cancel });
}

export interface SuggestSchedulerOptions<T> {
  delayMs: number;
  load: (text: string) => Promise<T>;
  /** An answer for the text currently typed. */
  onResult: (text: string, result: T) => void;
  /** A failed request for the text currently typed. */
  onError?: (text: string, error: unknown) => void;
  timers?: Timers;
}

export interface SuggestScheduler {
  /** The box now holds `text` (already trimmed by the caller); blank text asks for nothing. */
  input: (text: string) => void;
  /** Stops any wait and ignores the answer of a running request. */
  cancel: () => void;
}

/**
 * When to ask for suggestions: `delayMs` after typing stops, never while a request runs. Text typed
 * during a request is asked for once that request ends, and an answer is only delivered while it
 * still matches the text in the box, so a slow answer never overwrites a newer one.
 */
export function createSuggestScheduler<T>(options: SuggestSchedulerOptions<T>): SuggestScheduler {
  const timers = options.timers ?? realTimers;
  let current = '';
  let timer: unknown = null;
  let running = false;
  /** The delay ran out while a request was running: ask again when it ends. */
  let waiting = false;
  let lastAsked: string | null = null;

  const ask = (text: string) => {
    running = true;
    lastAsked = text;
    options
      .load(text)
      .then(
        (result) => {
          if (text === current) options.onResult(text, result);
        },
        (error: unknown) => {
          if (text === current) options.onError?.(text, error);
        },
      )
      .finally(() => {
        running = false;
        if (waiting) {
          waiting = false;
          if (current && current !== lastAsked) ask(current);
        }
      });
  };

  const fire = () => {
    timer = null;
    if (!current) return;
    if (running) waiting = true;
    else ask(current);
  };

  return {
    input(text) {
      current = text;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      waiting = false;
      if (text) timer = timers.setTimeout(fire, options.delayMs);
    },
    cancel() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      waiting = false;
      current = '';
    },
  };
}
