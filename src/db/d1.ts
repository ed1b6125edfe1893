import { drizzle } from 'drizzle-orm/d1';
import type { Database } from './database.ts';
import * as schema from './schema.ts';

interface BatchItem {
  _prepare(): { getQuery(): { sql: string; params: unknown[] }; mapResult(result: unknown, fromBatch: boolean): unknown };
}

/**
 * Drizzle over a D1 binding. drizzle-orm 0.45's D1 `batch` binds raw `db.all(sql…)` queries that have
 * parameters through a statement they do not have (TypeError "reading 'bind'"), and the limiter, the commit and
 * key regeneration batch raw SQL; so batches are prepared here from each query's SQL and parameters instead.
 */
export function openD1(binding: D1Database): Database {
  const db = drizzle(binding, { schema });
  const batch = async (queries: readonly BatchItem[]) => {
    const prepared = queries.map((query) => query._prepare());
    const statements = prepared.map((query) => {
      const { sql, params } = query.getQuery();
      return binding.prepare(sql).bind(...params);
    });
    const results = await binding.batch(statements);
    return results.map((result, index) => prepared[index]!.mapResult(result, true));
  };
  return Object.assign(db, { batch }) as unknown as Database;
}
