/**
 * A hot select whose SQL text is built once per isolate. Drizzle builds a select's text anew every
 * time it runs, which for the show query's hundred columns costs about a millisecond of the one
 * thread a request has, and checkout's confirmation page, quote and order each read the listing
 * with its show; every rendered browse page builds activity cards' columns and price subqueries
 * (catalogue, listing, calendar, activity detail). A compiled select is written like any select,
 * with its values as placeholders (Bound); each call binds the request's values to the text built
 * the first time and maps the rows as Drizzle would. It goes into a batch (read-together.ts) or is awaited; nothing else.
 */
import { fillPlaceholders, type Placeholder, placeholder, type Query } from 'drizzle-orm';
import type { PreparedQueryConfig, SQLitePreparedQuery, SQLiteSession } from 'drizzle-orm/sqlite-core';
import type { Db } from './client.ts';

/** A value as a select is written with it: the value itself, or its placeholder when the select is compiled. */
export type Bound<T> = T | Placeholder<string, T>;

type Placeholders<Values> = { [K in keyof Values & string]: Placeholder<K, Values[K]> };

/** What Drizzle's select builder and its prepared query keep (not part of their typed surface). */
interface SelectInternals {
  _prepare(): PreparedInternals;
  config: { fields: Record<string, unknown> };
}

interface PreparedInternals {
  getQuery(): Query;
  fields: unknown;
  joinsNotNullableMap: Record<string, boolean>;
}

interface Compiled {
  query: Query;
  fields: unknown;
  selection: Record<string, unknown>;
  joinsNotNullableMap: Record<string, boolean>;
}

type Session = SQLiteSession<'async', unknown, Record<string, never>, Record<string, never>>;

function sessionOf(db: Db): Session {
  return (db as unknown as { session: Session }).session;
}

/**
 * The select `build` describes, compiled on first use; `names` are its values' names, each given to
 * `build` as a placeholder. The answer takes a request's handle and values, and is typed as the select.
 */
export function compiledSelect<Values extends Record<string, unknown>, Select>(
  names: readonly (keyof Values & string)[],
  build: (db: Db, values: Placeholders<Values>) => Select,
): (db: Db, values: Values) => Select {
  let compiled: Compiled | null = null;
  const compile = (db: Db): Compiled => {
    const placeholders = Object.fromEntries(names.map((name) => [name, placeholder(name)])) as Placeholders<Values>;
    const select = build(db, placeholders) as unknown as SelectInternals;
    // Prepared once, never run: the text, and the fields in the order Drizzle maps the rows by.
    const prepared = select._prepare();
    return {
      query: prepared.getQuery(),
      fields: prepared.fields,
      selection: select.config.fields,
      joinsNotNullableMap: prepared.joinsNotNullableMap,
    };
  };
  return (db, values) => {
    compiled ??= compile(db);
    const { query: text, fields, selection, joinsNotNullableMap } = compiled;
    const prepare = (): SQLitePreparedQuery<PreparedQueryConfig> => {
      const query = sessionOf(db).prepareOneTimeQuery(
        { sql: text.sql, params: fillPlaceholders(text.params, values) },
        fields as Parameters<Session['prepareOneTimeQuery']>[1],
        'all',
        true,
      );
      Object.assign(query, { joinsNotNullableMap });
      return query;
    };
    const statement = {
      // What a batch asks of each statement (drizzle-orm's session.batch), and readTogether's column check.
      _prepare: prepare,
      config: { fields: selection },
      // biome-ignore lint/suspicious/noThenProperty: awaited alone, it runs as the select it stands for would.
      then: (resolve: (rows: unknown) => unknown, reject: (error: unknown) => unknown) =>
        (prepare().all() as Promise<unknown>).then(resolve, reject),
    };
    return statement as unknown as Select;
  };
}
