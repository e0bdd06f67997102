/** How deep and how wide a JSON text is, read from its characters before anything parses or walks it. */

export type JsonLimits = { maxDepth: number; maxKeys: number };

/**
 * Whether the JSON text nests no deeper than `maxDepth` arrays and objects and holds no more than
 * `maxKeys` object keys. One pass over the characters, no recursion, so a hostile body is measured
 * at the cost of its length; text that is not JSON at all is left for the parser to refuse.
 */
export function jsonWithinLimits(text: string, { maxDepth, maxKeys }: JsonLimits): boolean {
  let depth = 0;
  let keys = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === '{' || char === '[') {
      if (++depth > maxDepth) return false;
    } else if (char === '}' || char === ']') {
      depth--;
    } else if (char === ':') {
      // Outside a string, a colon only ever follows an object's key.
      if (++keys > maxKeys) return false;
    }
  }
  return true;
}
