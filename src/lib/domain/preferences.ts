/** Rules of the language and currency popup (SPEC.md sections 4 and 7). */

/**
 * The currency Confirm stores and saves on the server, or null. The spec saves a currency only
 * when a stored one exists: a visitor who never picked one and confirms the currency already shown
 * (the default) keeps following the default; picking another one stores it, and from then on
 * every Confirm saves the selection.
 */
export function currencyToSave(selected: string, shown: string, stored: string | null): string | null {
  return stored !== null || selected !== shown ? selected : null;
}
