/**
 * What EmbeddedClient and the checkpoint thread ask of a SQLite engine's connection to a file: the `libsql`
 * package's (src/db/libsql-engine.ts), or Bun's own (src/db/bun-sqlite.ts).
 */
export interface EngineConnection {
  prepare(sql: string): EngineStatement;
  /** Runs a statement without parameters or rows, and finalises it at once even when it fails. */
  exec(sql: string): void;
  readonly inTransaction: boolean;
  close(): void;
}

export interface EngineStatement {
  /** The statement answers rows: a query, or a change with RETURNING. */
  readonly reader: boolean;
  /** A reader's columns: names and declared types. */
  columns(): { name: string; type: string | null }[];
  /** Runs a reader to its end; its rows as arrays of values in column order. */
  rows(args: unknown[]): unknown[][];
  run(args: unknown[]): { changes: number; lastInsertRowid: number | bigint };
}
