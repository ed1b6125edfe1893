import { Database, type SQLQueryBindings } from 'bun:sqlite';
import type { EngineConnection } from './engine.ts';

/**
 * A connection of Bun's own SQLite (bun:sqlite, SQLite 3.54 in Bun 1.4), which the Bun server opens its file with:
 * its statements cost about half what the `libsql` package's do (a keyed final's ten statements 78 µs against
 * 147–167 µs, docs/scaling.md), and its SQLite has the fix of the WAL-reset bug (3.51.3) that the `libsql` package's
 * 3.45.1 lacks. Imported only under Bun (src/db/runtime-engine.ts). Bun takes a first argument that is an array or
 * an object as the whole list of values: the service binds only strings, numbers, null and bytes.
 */
export function bunSqliteConnection(path: string): EngineConnection {
  const connection = new Database(path, { create: true, readwrite: true });
  return {
    prepare(sql) {
      const statement = connection.prepare(sql);
      return {
        reader: statement.columnNames.length > 0,
        columns: () => statement.columnNames.map((name, index) => ({ name, type: statement.declaredTypes[index] ?? null })),
        rows: (args) => statement.values(...(args as SQLQueryBindings[])) as unknown[][],
        run: (args) => statement.run(...(args as SQLQueryBindings[])),
      };
    },
    exec: (sql) => void connection.run(sql),
    get inTransaction() {
      return connection.inTransaction;
    },
    // Closed at once, not once its statements are collected: the file's -wal and -shm go with it.
    close: () => connection.close(true),
  };
}
