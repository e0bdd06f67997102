/** Text as we store it: well-formed Unicode (no lone UTF-16 surrogates), in NFC. */

/**
 * Control, zero-width, bidi-override and BOM characters: never in a name, a password or a path,
 * because they hide text, reorder it on screen or break logs.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's job.
const INVISIBLE_OR_CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2064\ufeff]/;

/** Whether the text holds a control or invisible formatting character (see INVISIBLE_OR_CONTROL). */
export function hasControlCharacter(text: string): boolean {
  return INVISIBLE_OR_CONTROL.test(text);
}

export type CleanText = { ok: true; value: unknown } | { ok: false; path: (string | number)[] };

/**
 * The value with every string in it NFC-normalised (objects and arrays walked), or the path of the
 * first string that is not well-formed. NFC makes 'é' typed as e + accent and as one character the
 * same text, so search, names and duplicates compare as a reader would.
 */
export function cleanText(value: unknown, path: (string | number)[] = []): CleanText {
  if (typeof value === 'string') return value.isWellFormed() ? { ok: true, value: value.normalize('NFC') } : { ok: false, path };
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    for (const [index, item] of value.entries()) {
      const result = cleanText(item, [...path, index]);
      if (!result.ok) return result;
      items.push(result.value);
    }
    return { ok: true, value: items };
  }
  if (value !== null && typeof value === 'object') {
    const entries: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const result = cleanText(item, [...path, key]);
      if (!result.ok) return result;
      entries[key] = result.value;
    }
    return { ok: true, value: entries };
  }
  return { ok: true, value };
}
