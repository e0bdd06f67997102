/** Text as we store it: well-formed Unicode (no lone UTF-16 surrogates), in NFC. */

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
