/**
 * Database failures the service answers with 503 `service_busy` rather than 500: the database, not the
 * statement, is the cause. The three clients raise them differently — the embedded client as SqliteError codes
 * or the errors below, @libsql/client (libsql://) as LibsqlError codes or a failed fetch, D1 as message texts —
 * and drizzle wraps each in an error whose message carries the statement's parameters. This is the one place
 * that reads those shapes.
 */

/** Seconds a client is told to wait when the database was busy or unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** The embedded file's write lock stayed held by another connection for longer than the client waits. */
export class DatabaseBusy extends Error {
  readonly code = 'SQLITE_BUSY';
  constructor(waitedMs: number) {
    super(`database is locked by another connection; gave up after ${Math.round(waitedMs)} ms`);
    this.name = 'DatabaseBusy';
  }
}

/** A call on an embedded client after close() (a request still running while the process shuts down). */
export class DatabaseClosed extends Error {
  readonly code = 'CLIENT_CLOSED';
  constructor() {
    super('the database connection is closed');
    this.name = 'DatabaseClosed';
  }
}

interface DatabaseUnavailable {
  /**
   * True when the database refused the work before doing any of it (its lock was held, its queue was full, the
   * connection was closed before sending), so nothing was written. False when a connection failed while the
   * work may have been under way: a write's outcome is then unknown.
   */
  readonly nothingWritten: boolean;
}

/** SQLite's "another connection holds the lock" codes, basic and extended (SQLITE_BUSY_SNAPSHOT, …). */
const LOCK_CODE = /^SQLITE_(BUSY|LOCKED)(_|$)/;
/** Refused before anything ran: lock held, file could not be opened, client closed before sending. */
const REFUSED_CODES = /^(SQLITE_(BUSY|LOCKED|CANTOPEN)(_\w+)?|CLIENT_CLOSED)$/;
/** A connection to a libsql:// server that failed (refused, reset, lost): taken as unknown, since a request may have been under way. */
const CONNECTION_CODES = new Set([
  'HRANA_WEBSOCKET_ERROR',
  'HRANA_CLOSED_ERROR',
  'SERVER_ERROR',
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'ConnectionRefused',
  'ConnectionClosed',
  'FailedToOpenSocket',
]);
/** D1 (Cloudflare's documented transient errors): refused before running, or lost while running. */
const D1_REFUSED = ['D1 DB is overloaded', 'SQLITE_BUSY', 'database is locked'];
const D1_LOST = ['Network connection lost', 'storage caused object to be reset', 'reset because its code was updated'];

/** The error and its causes, outermost first (drizzle's query error wraps the driver's, which may wrap more). */
function chain(error: unknown): unknown[] {
  const errors: unknown[] = [];
  for (
    let current = error;
    current !== undefined && current !== null && errors.length < 6;
    current = (current as { cause?: unknown }).cause
  ) {
    errors.push(current);
    if (typeof current !== 'object') break;
  }
  return errors;
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** True for SQLite's lock errors: the statement did not run and may be run again once the lock is free. */
export function isLockBusy(error: unknown): boolean {
  return LOCK_CODE.test(codeOf(error) ?? '');
}

/** Whether a failure is the database being busy or unreachable (503) rather than a fault of the statement. */
export function databaseUnavailable(error: unknown): DatabaseUnavailable | undefined {
  for (const link of chain(error)) {
    if (link instanceof DatabaseBusy || link instanceof DatabaseClosed) return { nothingWritten: true };
    const code = codeOf(link);
    if (code !== undefined && REFUSED_CODES.test(code)) return { nothingWritten: true };
    if (code !== undefined && CONNECTION_CODES.has(code)) return { nothingWritten: false };
    // @libsql/client's stream to the server was closed, by a failed connection or by close().
    if (link instanceof Error && link.name === 'ClosedError') return { nothingWritten: false };
    // drizzle's own message holds the parameters, which are the caller's text, not the database's words.
    if (isQueryError(link)) continue;
    const message = messageOf(link);
    if (message === 'The database connection is not open') return { nothingWritten: true };
    if (D1_REFUSED.some((text) => message.includes(text))) return { nothingWritten: true };
    if (D1_LOST.some((text) => message.includes(text)) || message === 'fetch failed') return { nothingWritten: false };
  }
  return undefined;
}

/** drizzle's query error: `query` is the SQL with placeholders, `params` the values that must stay out of logs. */
function isQueryError(error: unknown): error is Error & { query: string; cause?: unknown } {
  return error instanceof Error && typeof (error as { query?: unknown }).query === 'string' && 'params' in error;
}

/**
 * A description of any error that is safe to log: for a failed query, the driver's error (name, code,
 * message) and the statement's SQL with its placeholders, never its parameters (idempotency keys, references,
 * key hashes); otherwise the error's name and message. Stack frames are added by the caller if wanted.
 */
export function describeError(error: unknown): string {
  const query = chain(error).find(isQueryError);
  const cause = query ? query.cause : error;
  const code = codeOf(cause);
  const name = cause instanceof Error ? cause.name : typeof cause;
  const text = `${name}${code && code !== name ? ` ${code}` : ''}: ${query && cause === undefined ? 'query failed' : messageOf(cause)}`;
  return query ? `${text} (statement: ${query.query.replace(/\s+/g, ' ').trim()})` : text;
}

/** The `at …` lines of an error's stack: where it happened, without its message (which may hold parameters). */
export function stackFrames(error: unknown): string[] {
  const stack = error instanceof Error ? error.stack : undefined;
  return stack
    ? stack
        .split('\n')
        .filter((line) => /^\s+at /.test(line))
        .map((line) => line.trim())
    : [];
}
