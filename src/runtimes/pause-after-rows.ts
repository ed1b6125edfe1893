import type { FetchHandler } from '../app.ts';

/** The pause: long enough for a client on the same host to send its next request. */
const PAUSE_MS = 0.2;
/** Handlers that kept the thread this long or longer are followed by the pause: 100 times the pause. */
const LONG_ROW_MS = 100 * PAUSE_MS;

export interface PauseOptions {
  longRowMs?: number;
  pauseMs?: number;
  /** Milliseconds on a monotonic clock; injected so that tests can say how long a row lasted. */
  now?: () => number;
}

/**
 * The HTTP server reads every socket that is ready in one go and runs their handlers in a row. A client answered at
 * the end of a row sends its next request just after the server has read again, and that request then waits for the
 * whole next row as well: at 64 in flight about one request in a hundred took twice the queueing bound
 * (docs/scaling.md). So the thread sleeps `pauseMs` between two reads once its handlers have kept it `longRowMs` or
 * more (wall-clock), and the requests sent in answer to the last answers join the next read. Where the sleep falls:
 * Bun runs immediates only after it has polled its sockets once more and run that read's handlers too
 * (test/smoke/pause-after-rows.test.ts), so the immediate a row's first handler schedules runs after the next read's
 * row (on a machine busy with other work, at times one read later), the time it measures spans both, and the pause
 * comes after every second read. `Atomics.wait` sleeps without holding the core (on Bun 1.4.5, 0.28 ms of wall-clock
 * for 0.2 asked): at most about 1.4% of a saturated server's time. Rows of light requests (template lists at 64 in
 * flight: 5 ms a read) are not followed by it: there it would cost 2–4%, and it did not shorten their tail
 * (docs/scaling.md). Work that goes on after its row (a remote database's answers, a retry after SQLITE_BUSY) opens no
 * row of its own: the rule is tuned for the embedded database, whose statements run in the handler's own turn.
 */
export function pauseAfterRows(fetch: FetchHandler, options: PauseOptions = {}): FetchHandler {
  const { longRowMs = LONG_ROW_MS, pauseMs = PAUSE_MS, now = () => performance.now() } = options;
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  let rowStart: number | undefined;
  const afterRow = () => {
    if (now() - rowStart! >= longRowMs) Atomics.wait(sleeper, 0, 0, pauseMs);
    rowStart = undefined;
  };
  return (request, connection) => {
    if (rowStart === undefined) {
      rowStart = now();
      setImmediate(afterRow);
    }
    return fetch(request, connection);
  };
}
