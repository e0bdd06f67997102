/** What island forms need around hydration: whether React runs yet, and what was typed before it did. */
import { useEffect, useLayoutEffect, useState, type RefObject } from 'react';

/** False in the server-rendered markup, true once React runs (buttons that call the API wait for it). */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Keeps what was typed or chosen in a server-rendered control before its island hydrated. React
 * leaves the control's DOM value alone while hydrating, but the state still holds the initial value,
 * so the next render would wipe the text: once mounted, the DOM value becomes the state.
 */
export function useValueTypedBeforeHydration(
  control: RefObject<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null>,
  value: unknown,
  onValue: (value: string) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only what the control holds when React takes it over counts.
  useLayoutEffect(() => {
    const typed = control.current?.value;
    if (typed !== undefined && typed !== String(value ?? '')) onValue(typed);
  }, []);
}

/** The same for a checkbox ticked before hydration. */
export function useCheckedBeforeHydration(
  control: RefObject<HTMLInputElement | null>,
  checked: boolean,
  onChecked: (checked: boolean) => void,
): void {
  // biome-ignore lint/correctness/useExhaustiveDependencies: only what the control holds when React takes it over counts.
  useLayoutEffect(() => {
    const ticked = control.current?.checked;
    if (ticked !== undefined && ticked !== checked) onChecked(ticked);
  }, []);
}
