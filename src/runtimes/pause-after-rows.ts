import type { FetchHandler } from '../app.ts';

/** The pause after a long row: long enough for a client on the same host to send its next request. */
export const PAUSE_MS = 0.2;
/** A row this long or longer is followed by the pause, which then costs at most 1% of the thread's time. */
export const LONG_ROW_MS = 100 * PAUSE_MS;

/**
 * The HTTP server reads every socket that is ready in one go and runs their handlers in a row. A client answered at
 * the end of a row sends its next request just after the server has read again, and that request then waits for
 * the whole next row as well: at 64 in flight about one request in a hundred took twice the queueing bound
 * (docs/scaling.md). After a row that kept the thread `longRowMs` or more, it sleeps `pauseMs` before the server
 * reads again (setImmediate runs once the row's handlers have run, before the next read), so that the requests
 * sent in answer to the row's last answers join the next row. A row of light requests (a template list at 64 in
 * flight takes 5 ms) is not followed by the pause, whose cost there would be 4%, for a wait of a few milliseconds.
 */
export function pauseAfterRows(fetch: FetchHandler, longRowMs = LONG_ROW_MS, pauseMs = PAUSE_MS): FetchHandler {
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let rowStart: number | undefined;
  const afterRow = () => {
    if (performance.now() - rowStart! >= longRowMs) Atomics.wait(sleeper, 0, 0, pauseMs);
    rowStart = undefined;
  };
  return (request, connection) => {
    if (rowStart === undefined) {
      rowStart = performance.now();
      setImmediate(afterRow);
    }
    return fetch(request, connection);
  };
}
