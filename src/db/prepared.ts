import { is, Param, Placeholder, SQL, StringChunk, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import type { Database } from './database.ts';

/**
 * A query that drizzle builds once per database and then only binds: for the small statements every request
 * runs, building the SQL was as costly as running it (measured).
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const built = new WeakMap<Database, Query>();
  return (db) => {
    const known = built.get(db);
    if (known) return known;
    const query = build(db);
    built.set(db, query);
    return query;
  };
}

const dialect = new SQLiteAsyncDialect();

/** A fragment built by drizzle, as text split where its parameters go, and those parameters. */
interface BuiltFragment {
  readonly text: readonly StringChunk[];
  readonly params: readonly unknown[];
}

function built(fragment: SQL): BuiltFragment {
  const query = dialect.sqlToQuery(fragment);
  const text = query.sql.split('?');
  // The text holds no '?' but the parameters' (drizzle never inlines a value in a fragment's text).
  if (text.length !== query.params.length + 1) throw new Error(`not a fragment of parameters only: ${query.sql}`);
  return { text: text.map((part) => new StringChunk(part)), params: query.params };
}

/**
 * The fragment again as flat SQL: its text as drizzle built it, each parameter between (an object as a Param, so
 * that drizzle binds it as it is: an array would otherwise become a list). Drizzle building it again costs next
 * to nothing; the text is the same, byte for byte, so SQLite's prepared statements are the same too.
 */
function flat({ text, params }: BuiltFragment, bind: (param: unknown) => unknown): SQL {
  const chunks: unknown[] = [text[0]];
  params.forEach((param, index) => {
    const value = bind(param);
    chunks.push(typeof value === 'object' && value !== null ? new Param(value) : value, text[index + 1]);
  });
  return new SQL(chunks as SQL['queryChunks']);
}

/**
 * An SQL fragment whose one value (a string) is bound per request, its text built by drizzle once per process, for
 * statements that are still built per request (a page of the history, a record by id) around the caller looked up
 * by the key's hash: drizzle building such a fragment each time cost more than running it (measured: issue 19).
 * The statements every document runs are built once whole instead (statementOf).
 */
export function fragmentPerValue(build: (value: Placeholder) => SQL): (value: string) => SQL {
  let template: BuiltFragment | undefined;
  return (value) => {
    template ??= built(build(sql.placeholder('value')));
    return flat(template, (param) => (is(param, Placeholder) ? value : param));
  };
}

/** What drizzle prepares a query or raw statement into: its SQL and parameters, and how to read its answer. */
interface PreparedQuery {
  getQuery(): { sql: string; params: unknown[] };
  mapResult(result: unknown, fromBatch?: boolean): unknown;
}

/** A query builder or raw statement of drizzle's, as a batch takes it. */
interface Preparable {
  _prepare(isOneTimeQuery?: boolean): PreparedQuery;
}

/** One parameter of a statement: a placeholder's name, bound per request, or a value fixed when it was built. */
type Slot = { readonly name: string; readonly encode: (value: unknown) => unknown } | { readonly value: unknown };

/** The values a statement's placeholders take, by name. */
export type StatementValues = Readonly<Record<string, unknown>>;

/**
 * A whole statement built by drizzle once, with placeholders where a request's values go: binding it makes a batch
 * item whose SQL is that same text, so that per request no SQL is built at all. Drizzle's batch does not bind
 * placeholders (it sends them as they are); this item carries its values bound.
 */
export interface Statement {
  readonly sql: string;
  bind(values: StatementValues): BatchItem<'sqlite'>;
}

export function statementOf(query: unknown): Statement {
  const prepared = (query as Preparable)._prepare(false);
  const { sql: text, params } = prepared.getQuery();
  const slots: Slot[] = params.map((param) => {
    if (is(param, Placeholder)) return { name: param.name, encode: (value: unknown) => value };
    // A column's value (an insert's or an update's): its encoder maps it as drizzle's own binding does.
    if (is(param, Param) && is(param.value, Placeholder)) {
      const { encoder } = param;
      return { name: param.value.name, encode: (value: unknown) => encoder.mapToDriverValue(value) };
    }
    return { value: param };
  });
  const mapResult = (result: unknown, fromBatch?: boolean) => prepared.mapResult(result, fromBatch);
  return {
    sql: text,
    bind(values) {
      const bound = slots.map((slot) => {
        if ('value' in slot) return slot.value;
        if (!(slot.name in values)) throw new Error(`no value for the placeholder ${slot.name}`);
        return slot.encode(values[slot.name]);
      });
      const query = { getQuery: () => ({ sql: text, params: bound }), mapResult };
      return { _prepare: () => query } as unknown as BatchItem<'sqlite'>;
    },
  };
}

/**
 * Statements built once per database and per variant (a flat object of the switches that change their text: a
 * mode, whether there is a lease; keyed by its JSON, so no switch can be left out of the key), for the statements
 * every request runs. Per database: drizzle's prepared query belongs to its database (on D1, to its binding), so
 * two never share one.
 */
export function statementsPerDatabase<Variant extends object, Statements>(
  build: (db: Database, variant: Variant) => Statements,
): (db: Database, variant: Variant) => Statements {
  const variantsOf = preparedPerDatabase(() => new Map<string, Statements>());
  return (db, variant) => {
    const variants = variantsOf(db);
    const key = JSON.stringify(variant);
    let statements = variants.get(key);
    if (!statements) {
      statements = build(db, variant);
      variants.set(key, statements);
    }
    return statements;
  };
}
