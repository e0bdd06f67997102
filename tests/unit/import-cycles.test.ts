/**
 * No module of src imports itself back through others: a cycle makes load order matter and ties
 * two features into one. Reads every import and re-export of src (type-only ones too: a type cycle
 * is the same tangle, only harmless at run time), resolves the relative ones, and reports each
 * strongly connected group of files; then holds the folders to their layers.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SOURCE = /\.(ts|tsx|mts|mjs|astro)$/;
const IMPORT =
  /(?:^|[\s;])(?:import|export)\s[^'"`;]*?from\s*['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s*['"]([^'"]+)['"]/gm;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : SOURCE.test(name) ? [full] : [];
  });
}

/** The files of src a file imports (relative specifiers only: packages cannot import us back). */
function importsOf(file: string, known: Set<string>): string[] {
  const text = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (!specifier?.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), specifier.split('?')[0]);
    if (known.has(target)) found.add(target);
  }
  return [...found];
}

/** Tarjan's strongly connected components with more than one file, or one importing itself. */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || graph.get(node)?.includes(node)) groups.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return groups;
}

describe('the import graph of src', () => {
  const files = filesUnder(path.join(ROOT, 'src'));
  const known = new Set(files);
  const graph = new Map(files.map((file) => [file, importsOf(file, known)]));

  it('reads the imports it should (a broken reader would find no cycle anywhere)', () => {
    const checkout = path.join(ROOT, 'src/lib/services/orders/create-order.ts');
    expect(graph.get(checkout)).toContain(path.join(ROOT, 'src/lib/domain/idempotency.ts'));
    expect(
      cycles(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });

  it('has no cycle', () => {
    const found = cycles(graph).map((group) => group.map((file) => path.relative(ROOT, file)));
    expect(found).toEqual([]);
  });
});

/** Folders of src/lib and the folders they may never import: the data flows one way. */
const FORBIDDEN: Record<string, string[]> = {
  // Settings, split by concern: the floor every other folder stands on.
  'lib/config': [
    'lib/domain',
    'lib/services',
    'lib/db',
    'lib/data',
    'lib/api',
    'lib/edge',
    'lib/loaders',
    'lib/browser',
    'lib/durable-objects',
    'lib/http',
    'lib/media',
    'lib/i18n',
  ],
  // Rules only: no I/O, no transport, no browser.
  'lib/domain': [
    'lib/services',
    'lib/db',
    'lib/data',
    'lib/api',
    'lib/edge',
    'lib/loaders',
    'lib/browser',
    'lib/durable-objects',
    'lib/http',
    'lib/media',
  ],
  // Request and response helpers, and drawing: beside the rules, below the services and the API.
  'lib/http': ['lib/services', 'lib/db', 'lib/data', 'lib/api', 'lib/edge', 'lib/loaders', 'lib/browser', 'lib/durable-objects'],
  'lib/media': [
    'lib/services',
    'lib/db',
    'lib/data',
    'lib/api',
    'lib/edge',
    'lib/loaders',
    'lib/browser',
    'lib/durable-objects',
    'lib/http',
  ],
  // Catalogues and locales sit below the rules that use them.
  'lib/i18n': ['lib/domain', 'lib/services', 'lib/db', 'lib/data', 'lib/api', 'lib/edge', 'lib/loaders', 'lib/browser'],
  // Services know nothing of HTTP, pages or the browser, nor of Durable Objects: they call the on-sale ports (data/inventory-port.ts).
  'lib/services': ['lib/api', 'lib/edge', 'lib/loaders', 'lib/browser', 'lib/durable-objects'],
  // How the app talks to D1: below the services and the Durable Objects that use it.
  'lib/data': ['lib/services', 'lib/api', 'lib/edge', 'lib/loaders', 'lib/browser', 'lib/durable-objects', 'lib/http', 'lib/media'],
  'lib/db': ['lib/services', 'lib/api', 'lib/edge', 'lib/loaders', 'lib/browser', 'lib/durable-objects'],
  // The server never reaches the browser's client and stores.
  'lib/api': ['lib/browser', 'lib/edge', 'lib/loaders'],
  // The edge (page cache, request context, crawler files, share cards, page head) sits in front of the pages and knows none of
  // their loaders; like the API it is where a request enters, so it hands the services the Durable Objects' ports.
  'lib/edge': ['lib/browser', 'lib/loaders', 'lib/api'],
  // A page's loader gathers its data from the services and hands back values, not responses.
  'lib/loaders': ['lib/browser', 'lib/durable-objects', 'lib/http'],
  // An object stands on the data layer and the rules; the entry hands it what it needs of the services.
  'lib/durable-objects': ['lib/api', 'lib/edge', 'lib/loaders', 'lib/browser', 'lib/services'],
};

const folderOf = (file: string) => path.relative(path.join(ROOT, 'src'), file).split(path.sep).slice(0, 2).join('/');

describe('the folders of src/lib', () => {
  const files = filesUnder(path.join(ROOT, 'src'));
  const known = new Set(files);

  it('import only the layers below them', () => {
    const backward = files.flatMap((file) => {
      const forbidden = FORBIDDEN[folderOf(file)] ?? [];
      return importsOf(file, known)
        .filter((target) => forbidden.includes(folderOf(target)))
        .map((target) => `${path.relative(ROOT, file)} -> ${path.relative(ROOT, target)}`);
    });
    expect(backward).toEqual([]);
  });
});
