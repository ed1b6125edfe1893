/**
 * The service's log: one JSON object a line, `time` (ISO 8601, UTC, milliseconds), `level` and `event` first.
 * `info` is the service doing its work (every answer a client caused, 4xx included); `warn` is work refused for
 * want of capacity or of a part out of reach (a busy database, a full render queue), which recovers by itself
 * but an operator watches for; `error` is a fault of the service (a 5xx it caused, a mail not sent). info lines
 * go to stdout, warn and error lines to stderr, on every runtime (Workers Logs keeps both).
 *
 * Callers pass ids, codes and descriptions made safe for a log (db/failures.ts describeError): never a key, a
 * secret, a document's fields or a query's parameters.
 */
export type LogLevel = 'info' | 'warn' | 'error';

export function log(level: LogLevel, event: string, fields: Readonly<Record<string, unknown>> = {}): void {
  const line = JSON.stringify({ time: new Date().toISOString(), level, event, ...fields });
  // Looked up at each call: tests and hosts may replace the console's methods.
  if (level === 'info') console.log(line);
  else console.error(line);
}
