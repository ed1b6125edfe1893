import type { EngineConnection } from './engine.ts';

/**
 * The SQLite engine this runtime opens an embedded file with: Bun's own, faster through its bindings
 * (src/db/bun-sqlite.ts), or under Node the `libsql` package (src/db/libsql-engine.ts); each imported only where
 * it is used. The server's connection and its checkpoint thread (src/db/checkpoints.ts) both open it; what they
 * ask of it is src/db/engine.ts.
 */
export async function runtimeEngine(): Promise<(path: string) => EngineConnection> {
  return typeof Bun === 'undefined'
    ? (await import('./libsql-engine.ts')).libsqlConnection
    : (await import('./bun-sqlite.ts')).bunSqliteConnection;
}
