import { is, Placeholder, SQL, StringChunk, sql } from 'drizzle-orm';
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

/**
 * An SQL fragment whose one value (a string) is bound per request, its text built by drizzle once per process:
 * the fragment as drizzle would build it with `value` in the placeholder's place, as flat text and values. The
 * fragments every statement of a keyed batch repeats (the caller's key and account, looked up by the key's hash)
 * made drizzle's building of the batch's SQL cost more than running it (measured: issue 19). The text is the
 * same, byte for byte, so SQLite's prepared statements are the same too.
 */
export function fragmentPerValue(build: (value: Placeholder) => SQL): (value: string) => SQL {
  let template: { text: StringChunk[]; params: unknown[] } | undefined;
  const templateOf = () => {
    const built = dialect.sqlToQuery(build(sql.placeholder('value')));
    const text = built.sql.split('?');
    // The text holds no '?' but the parameters' (drizzle never inlines a value in a fragment's text).
    if (text.length !== built.params.length + 1) throw new Error(`fragmentPerValue: ${built.sql} is not a fragment of parameters`);
    return { text: text.map((part) => new StringChunk(part)), params: built.params };
  };
  return (value) => {
    template ??= templateOf();
    const chunks: unknown[] = [template.text[0]];
    template.params.forEach((param, index) => {
      chunks.push(is(param, Placeholder) ? value : param, template!.text[index + 1]);
    });
    return new SQL(chunks as SQL['queryChunks']);
  };
}
