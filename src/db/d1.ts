import { drizzle } from 'drizzle-orm/d1';
import type { Database } from './database.ts';
import * as schema from './schema.ts';

/** Distinct SQL texts kept prepared per binding, as EmbeddedClient keeps them per connection. */
const STATEMENT_CACHE_SIZE = 256;

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
  // The binding's statements by SQL text, prepared once and bound per batch (binding returns a new statement). The
  // service's texts hold no values, so they are a few dozen; the bound keeps a fault from growing it without end.
  const statements = new Map<string, D1PreparedStatement>();
  const statementOf = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
      statement = binding.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const batch = async (queries: readonly BatchItem[]) => {
    const prepared = queries.map((query) => query._prepare());
    const bound = prepared.map((query) => {
      const { sql, params } = query.getQuery();
      return statementOf(sql).bind(...params);
    });
    const results = await binding.batch(bound);
    return results.map((result, index) => prepared[index]!.mapResult(result, true));
  };
  return Object.assign(db, { batch }) as unknown as Database;
}
