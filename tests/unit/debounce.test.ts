import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SUGGESTION_DELAY_MS } from '../../src/lib/config/browse.ts';
import { createSuggestScheduler, debounce } from '../../src/lib/domain/debounce.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('debounce', () => {
  it('calls once, with the latest arguments, after the delay without calls', () => {
    const fn = vi.fn();
    const debounced = debounce(fn, 100);
    debounced('a');
    vi.advanceTimersByTime(60);
    debounced('ab');
    vi.advanceTimersByTime(99);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledExactlyOnceWith('ab');
  });

  it('drops a pending call when cancelled', () => {
    const fn = vi.fn();
    const debounced = debounce(fn, 100);
    debounced('a');
    debounced.cancel();
    vi.advanceTimersByTime(500);
    expect(fn).not.toHaveBeenCalled();
  });
});

/** A load whose answers the test releases by hand. */
function controlledLoad() {
  const pending: { text: string; resolve: (value: string[]) => void; reject: (error: Error) => void }[] = [];
  const load = vi.fn((text: string) => new Promise<string[]>((resolve, reject) => pending.push({ text, resolve, reject })));
  return { load, pending };
}

describe('createSuggestScheduler', () => {
  it('asks 300 ms after typing stops, once, for the latest text', async () => {
    const { load, pending } = controlledLoad();
    const onResult = vi.fn();
    const scheduler = createSuggestScheduler({ delayMs: SUGGESTION_DELAY_MS, load, onResult });
    scheduler.input('k');
    vi.advanceTimersByTime(200);
    scheduler.input('ke');
    vi.advanceTimersByTime(200);
    scheduler.input('kel');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS - 1);
    expect(load).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(load).toHaveBeenCalledExactlyOnceWith('kel');
    pending[0].resolve(['Kelvin Lau']);
    await vi.runAllTimersAsync();
    expect(onResult).toHaveBeenCalledExactlyOnceWith('kel', ['Kelvin Lau']);
  });

  it('never asks while a request runs, and asks for the newest text when it ends', async () => {
    const { load, pending } = controlledLoad();
    const onResult = vi.fn();
    const scheduler = createSuggestScheduler({ delayMs: SUGGESTION_DELAY_MS, load, onResult });
    scheduler.input('ke');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS);
    scheduler.input('kel');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS);
    scheduler.input('kelv');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS);
    expect(load).toHaveBeenCalledTimes(1);
    pending[0].resolve(['stale']);
    await vi.advanceTimersByTimeAsync(0);
    // The answer for 'ke' no longer matches the box, so it is not shown; 'kelv' is asked next.
    expect(onResult).not.toHaveBeenCalled();
    expect(load).toHaveBeenCalledTimes(2);
    expect(load).toHaveBeenLastCalledWith('kelv');
    pending[1].resolve(['Kelvin Lau']);
    await vi.advanceTimersByTimeAsync(0);
    expect(onResult).toHaveBeenCalledExactlyOnceWith('kelv', ['Kelvin Lau']);
  });

  it('does not ask again when the text typed during a request is the one asked for', async () => {
    const { load, pending } = controlledLoad();
    const scheduler = createSuggestScheduler({ delayMs: SUGGESTION_DELAY_MS, load, onResult: vi.fn() });
    scheduler.input('ab');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS);
    scheduler.input('abc');
    scheduler.input('ab');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS);
    pending[0].resolve([]);
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('asks for nothing on blank text and forgets pending work when cancelled', async () => {
    const { load, pending } = controlledLoad();
    const onResult = vi.fn();
    const scheduler = createSuggestScheduler({ delayMs: SUGGESTION_DELAY_MS, load, onResult });
    scheduler.input('');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS * 2);
    expect(load).not.toHaveBeenCalled();
    scheduler.input('x');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS);
    scheduler.cancel();
    pending[0].resolve(['late']);
    await vi.advanceTimersByTimeAsync(0);
    expect(onResult).not.toHaveBeenCalled();
  });

  it('reports a failure for the current text only', async () => {
    const { load, pending } = controlledLoad();
    const onError = vi.fn();
    const scheduler = createSuggestScheduler({ delayMs: SUGGESTION_DELAY_MS, load, onResult: vi.fn(), onError });
    scheduler.input('x');
    vi.advanceTimersByTime(SUGGESTION_DELAY_MS);
    pending[0].reject(new Error('network'));
    await vi.advanceTimersByTimeAsync(0);
    expect(onError).toHaveBeenCalledWith('x', expect.any(Error));
  });
});
