import type { Database } from './database.ts';

/**
 * A query that drizzle builds once per database and then only binds: for the small statements every request
 * runs, building the SQL was as costly as running it (measured).
 */
export function preparedPerDatabase<Query>(build: (db: Database) => Query): (db: Database) => Query {
  const built = new WeakMap<Database, Query>();
  return (db) => {
    let query = built.get(db);
    if (!query) built.set(db, (query = build(db)));
    return query;
  };
}
