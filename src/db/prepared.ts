import { is, Param, Placeholder, SQL, StringChunk, sql } from 'drizzle-orm';
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
function flat({ text, params }: BuiltFragment, bind: (param: unknown) => unknown = (param) => param): SQL {
  const chunks: unknown[] = [text[0]];
  params.forEach((param, index) => {
    const value = bind(param);
    chunks.push(typeof value === 'object' && value !== null ? new Param(value) : value, text[index + 1]);
  });
  return new SQL(chunks as SQL['queryChunks']);
}

/**
 * An SQL fragment whose one value (a string) is bound per request, its text built by drizzle once per process.
 * The fragments every statement of a keyed batch repeats (the caller's key and account, looked up by the key's
 * hash) made drizzle's building of the batch's SQL cost more than running it (measured: issue 19).
 */
export function fragmentPerValue(build: (value: Placeholder) => SQL): (value: string) => SQL {
  let template: BuiltFragment | undefined;
  return (value) => {
    template ??= built(build(sql.placeholder('value')));
    return flat(template, (param) => (is(param, Placeholder) ? value : param));
  };
}

/**
 * A fragment that one request's statements use several times (a bucket's name, a condition), built by drizzle
 * once for all of them.
 */
export function builtOnce(fragment: SQL): SQL {
  return flat(built(fragment));
}
