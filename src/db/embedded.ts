import type { ResultSet, Row } from '@libsql/client';
import { type CheckpointThread, startCheckpointThread } from './checkpoints.ts';
import type { EngineConnection, EngineStatement } from './engine.ts';
import { DatabaseBusy, DatabaseClosed, isLockBusy } from './failures.ts';

type SqlValue = string | number | bigint | boolean | null | Uint8Array;
interface SqlStatement {
  sql: string;
  args?: SqlValue[];
}

/** What the service, its CLI and its tests ask of a database client: @libsql/client's `Client` or the one below. */
export interface SqlClient {
  execute(statement: string | SqlStatement): Promise<ResultSet>;
  batch(statements: (string | SqlStatement)[]): Promise<ResultSet[]>;
  migrate(statements: SqlStatement[]): Promise<ResultSet[]>;
  close(): void;
}

/** Distinct SQL texts kept prepared per connection; the service issues a few dozen. */
const STATEMENT_CACHE_SIZE = 256;
const VALUES = Symbol('values');

/**
 * Rows as drizzle's libSQL driver reads them: the builder by index (`length`, `[i]`), raw SQL by column name.
 * Names are the only enumerable keys, as in @libsql/client's own rows.
 */
function rowMaker(columns: readonly string[]): (values: unknown[]) => Row {
  const prototype = Object.defineProperty({}, 'length', { value: columns.length });
  columns.forEach((_, index) => {
    Object.defineProperty(prototype, index, {
      get(this: { [VALUES]: unknown[] }) {
        return this[VALUES][index];
      },
    });
  });
  return (values) => {
    const row: Record<string | symbol, unknown> = Object.create(prototype);
    row[VALUES] = values;
    columns.forEach((name, index) => {
      if (!Object.hasOwn(row, name)) row[name] = values[index];
    });
    return row as unknown as Row;
  };
}

interface Prepared {
  statement: EngineStatement;
  reader: boolean;
  columns: string[];
  columnTypes: string[];
  makeRow: (values: unknown[]) => Row;
}

function resultSet(
  prepared: Pick<Prepared, 'columns' | 'columnTypes'>,
  rows: Row[],
  rowsAffected: number,
  lastInsertRowid: bigint | undefined,
): ResultSet {
  const { columns, columnTypes } = prepared;
  return {
    columns,
    columnTypes,
    rows,
    rowsAffected,
    lastInsertRowid,
    toJSON: () => ({ columns, columnTypes, rows: rows.map((row) => ({ ...row })), rowsAffected }),
  };
}

/** How long a call waits in all for another connection's write lock before it fails with DatabaseBusy. */
const DEFAULT_BUSY_WAIT_MS = 2_000;
/**
 * Pauses between attempts while another connection holds the lock (then the last one, repeated). They are
 * asynchronous: the engine's own busy timeout would wait synchronously and stop the whole process meanwhile.
 */
const BUSY_BACKOFF_MS = [1, 2, 5, 10, 25];
/**
 * Statements without parameters or rows that the engine's exec runs and finalises at once (never kept
 * prepared, see below): transaction control, and schema changes (the migrator's CREATE TABLE IF NOT EXISTS,
 * which takes no write lock once the table exists).
 */
const RUN_BY_EXEC = /^\s*(BEGIN|COMMIT|END|ROLLBACK|SAVEPOINT|RELEASE|CREATE|DROP|ALTER)\b/i;
/** A query (SELECT): a batch of nothing else is a read transaction. */
const ONLY_READS = /^\s*SELECT\b/i;
/** Statements that change rows: outside a transaction each runs in its own, which takes the lock first. */
const CHANGES_ROWS = /^\s*(INSERT|UPDATE|DELETE|REPLACE|WITH)\b/i;

/**
 * An embedded database file used through a SQLite engine directly (`engine`: the `libsql` package that
 * @libsql/client itself opens files with, or Bun's own), on one connection whose statements stay prepared.
 * @libsql/client prepares every statement again on each call and builds each row with property descriptors: a keyed
 * final in Bun took 1.84–1.98 ms through it and 1.43–1.52 ms through this on the `libsql` package (handler in
 * process, 2,000 in a row). Every call is synchronous underneath, so nothing interleaves on the connection; other
 * processes on the same file are ordered by SQLite's locks.
 *
 * Locks. With the `libsql` package, a prepared statement that fails with SQLITE_BUSY stays in progress on the
 * connection until it is reset, and while it does, the connection's later autocommit writes are never committed and
 * keep the write lock; its Statement has no reset(): run() and all() reset a statement only to run it again at once
 * (Bun's resets a failed statement itself; the design below serves both). So a prepared statement is never the one
 * to wait for the lock: every write runs inside BEGIN IMMEDIATE … COMMIT issued through exec(), whose statement the
 * engine finalises at once, even when it fails. When BEGIN IMMEDIATE finds the lock held, nothing has run; the
 * attempt is repeated after an asynchronous pause (busy_timeout is 0) until DEFAULT_BUSY_WAIT_MS, then
 * DatabaseBusy. Reads in WAL mode take no lock; a read that still meets one (WAL recovery) is run again, and
 * running it again resets it. Every statement otherwise runs to its end (SQLITE_DONE) each time it is used.
 * Statements are told apart by their first word: the service's SQL comes from drizzle and this repository.
 */
export class EmbeddedClient implements SqlClient {
  readonly #path: string;
  readonly #connection: EngineConnection;
  readonly #statements = new Map<string, Prepared>();
  readonly #busyWaitMs: number;
  /** When a call last waited #busyWaitMs for the lock in vain (performance.now()). */
  #gaveUpAt = -Infinity;
  #closed = false;
  #checkpoints: CheckpointThread | undefined;

  constructor(path: string, options: { engine: (path: string) => EngineConnection; busyWaitMs?: number }) {
    this.#path = path;
    this.#connection = options.engine(path);
    this.#busyWaitMs = options.busyWaitMs ?? DEFAULT_BUSY_WAIT_MS;
  }

  #prepare(sql: string): Prepared {
    const cached = this.#statements.get(sql);
    if (cached) {
      this.#statements.delete(sql);
      this.#statements.set(sql, cached);
      return cached;
    }
    const statement = this.#connection.prepare(sql);
    const reader = statement.reader;
    const described = reader ? statement.columns() : [];
    const columns = described.map((column) => column.name);
    const prepared = { statement, reader, columns, columnTypes: described.map((column) => column.type ?? ''), makeRow: rowMaker(columns) };
    this.#statements.set(sql, prepared);
    if (this.#statements.size > STATEMENT_CACHE_SIZE) this.#statements.delete(this.#statements.keys().next().value!);
    return prepared;
  }

  /** One statement, prepared once and kept: a failed one stays cached, since using it again resets it. */
  #run(input: string | SqlStatement): ResultSet {
    const { sql, args = [] } = typeof input === 'string' ? { sql: input } : input;
    if (RUN_BY_EXEC.test(sql)) {
      this.#connection.exec(sql);
      return resultSet({ columns: [], columnTypes: [] }, [], 0, undefined);
    }
    const prepared = this.#prepare(sql);
    const bound = args.map((value) => (typeof value === 'boolean' ? Number(value) : value));
    if (prepared.reader) return resultSet(prepared, prepared.statement.rows(bound).map(prepared.makeRow), 0, undefined);
    const info = prepared.statement.run(bound);
    return resultSet(prepared, [], info.changes, BigInt(info.lastInsertRowid));
  }

  /**
   * The write lock is taken up front (BEGIN IMMEDIATE) by exec, so no prepared statement ever waits for it. A
   * batch that only reads is one read transaction (BEGIN DEFERRED): its reads see one snapshot and, in WAL mode,
   * take no lock, as a single read does not.
   */
  #transaction(statements: readonly (string | SqlStatement)[]): ResultSet[] {
    // Nothing here keeps a transaction open between calls; one still open is left by a ROLLBACK that failed,
    // and a write run inside it would never be committed.
    if (this.#connection.inTransaction) this.#connection.exec('ROLLBACK');
    const reads = statements.every((statement) => ONLY_READS.test(typeof statement === 'string' ? statement : statement.sql));
    this.#connection.exec(reads ? 'BEGIN DEFERRED' : 'BEGIN IMMEDIATE');
    try {
      const results = statements.map((statement) => this.#run(statement));
      this.#connection.exec('COMMIT');
      return results;
    } finally {
      if (this.#connection.inTransaction) this.#connection.exec('ROLLBACK');
    }
  }

  /**
   * Runs `attempt`, again after a pause while another connection holds the lock, at most #busyWaitMs in all.
   * Within #busyWaitMs after a call gave up, calls try once and do not wait: a lock held that long is likely
   * still held, and every request waiting for it in turn would only delay its 503.
   */
  async #whenFree<T>(attempt: () => T): Promise<T> {
    const started = performance.now();
    const patience = started - this.#gaveUpAt < this.#busyWaitMs ? 0 : this.#busyWaitMs;
    for (let tries = 0; ; tries++) {
      if (this.#closed) throw new DatabaseClosed();
      try {
        return attempt();
      } catch (error) {
        if (!isLockBusy(error)) throw error;
        const waited = performance.now() - started;
        if (waited >= patience) {
          if (patience > 0) this.#gaveUpAt = performance.now();
          throw new DatabaseBusy(waited);
        }
        const pause = BUSY_BACKOFF_MS[Math.min(tries, BUSY_BACKOFF_MS.length - 1)]!;
        await new Promise((resolve) => setTimeout(resolve, Math.min(pause, patience - waited)));
      }
    }
  }

  async execute(input: string | SqlStatement): Promise<ResultSet> {
    const changesRows = CHANGES_ROWS.test(typeof input === 'string' ? input : input.sql);
    return this.#whenFree(() => (changesRows ? this.#transaction([input])[0]! : this.#run(input)));
  }

  async batch(statements: (string | SqlStatement)[]): Promise<ResultSet[]> {
    return this.#whenFree(() => this.#transaction(statements));
  }

  /** As @libsql/client: migrations run with foreign keys off, which are on for everything else. */
  async migrate(statements: SqlStatement[]): Promise<ResultSet[]> {
    // Nothing to apply (every start once migrated): no need to wait for another process's write lock.
    if (statements.length === 0) return [];
    return this.#whenFree(() => {
      this.#run('PRAGMA foreign_keys = OFF');
      try {
        return this.#transaction(statements);
      } finally {
        this.#run('PRAGMA foreign_keys = ON');
      }
    });
  }

  /**
   * The file's checkpoints made by a thread of their own from now on (CheckpointThread), for a server, where the
   * engine's SQLite has the fix of the WAL-reset bug (hasWalResetFix): once it listens, so that a process that cannot
   * listen exits before any thread starts. The file is in WAL mode (openDatabase); an in-memory database has no WAL.
   * Whether the thread runs.
   */
  checkpointInThread(): boolean {
    if (this.#path === ':memory:' || this.#closed) return false;
    this.#checkpoints ??= startCheckpointThread(this.#path, this.#connection);
    return this.#checkpoints !== undefined;
  }

  /** Later calls fail with DatabaseClosed; the engine itself must not be touched once closed (libsql's aborts). */
  close(): void {
    this.#closed = true;
    void this.#checkpoints?.stop();
    this.#statements.clear();
    this.#connection.close();
  }

  /** close(), once the checkpoint thread has ended: what a process does before it exits (CheckpointThread.stop). */
  async closeWhenThreadEnded(): Promise<void> {
    await this.#checkpoints?.stop();
    this.close();
  }
}
