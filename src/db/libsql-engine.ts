import Libsql from 'libsql';
import type { EngineConnection } from './engine.ts';

/** A connection of the `libsql` package (SQLite 3.45.1), which Node and the CLI open their file with. */
export function libsqlConnection(path: string): EngineConnection {
  const connection = new Libsql(path);
  return {
    prepare(sql) {
      const statement = connection.prepare(sql);
      const reader = statement.reader;
      if (reader) statement.raw(true);
      return {
        reader,
        columns: () => statement.columns(),
        rows: (args) => statement.all(args) as unknown[][],
        run: (args) => statement.run(args),
      };
    },
    exec: (sql) => void connection.exec(sql),
    get inTransaction() {
      return connection.inTransaction;
    },
    close: () => connection.close(),
  };
}
