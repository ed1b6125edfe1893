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
