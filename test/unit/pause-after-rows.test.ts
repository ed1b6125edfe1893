import { describe, expect, it } from 'vitest';
import type { Connection, FetchHandler } from '../../src/app.ts';
import { pauseAfterRows } from '../../src/runtimes/pause-after-rows.ts';

/**
 * The pause is told by when the next event-loop turn comes: an immediate scheduled after a row's handlers runs after
 * the wrapper's own check, so it waits for any pause. The test's pause (250 ms) and row (20 ms) are far apart from
 * what a busy machine adds, so that neither case can be mistaken for the other.
 */
const TEST_PAUSE_MS = 250;
const TEST_LONG_ROW_MS = 20;

function busyFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {}
}

/** A handler whose every request keeps the thread `ms`, answering with the request's URL. */
function handlerOf(ms: number): FetchHandler {
  return async (request) => {
    busyFor(ms);
    return new Response(request.url);
  };
}

/** Runs `requests` handlers in one row, as a server does with the sockets of one read; ms until the next turn. */
async function rowThenNextTurn(fetch: FetchHandler, requests: number): Promise<number> {
  const answers = Array.from({ length: requests }, (_, i) => fetch(new Request(`http://svc.test/${i}`)));
  const rowEnd = performance.now();
  await new Promise((resolve) => setImmediate(resolve));
  const wait = performance.now() - rowEnd;
  expect(await Promise.all(answers.map((answer) => answer.then((response) => response.text())))).toEqual(
    Array.from({ length: requests }, (_, i) => `http://svc.test/${i}`),
  );
  return wait;
}

describe('pauseAfterRows', () => {
  it('passes each request and its connection to the handler and answers with its answer', async () => {
    const seen: [string, Connection | undefined][] = [];
    const fetch = pauseAfterRows(async (request, connection) => {
      seen.push([request.url, connection]);
      return new Response('made by the handler', { status: 201 });
    });
    const response = await fetch(new Request('http://svc.test/api/v1/documents'), { clientAddress: '203.0.113.7' });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('made by the handler');
    expect(seen).toEqual([['http://svc.test/api/v1/documents', { clientAddress: '203.0.113.7' }]]);
  });

  it('sleeps the pause before the next turn after a row that kept the thread long enough', async () => {
    const fetch = pauseAfterRows(handlerOf(TEST_LONG_ROW_MS / 4 + 1), TEST_LONG_ROW_MS, TEST_PAUSE_MS);
    expect(await rowThenNextTurn(fetch, 4)).toBeGreaterThanOrEqual(TEST_PAUSE_MS - 1);
  });

  it('does not pause after a short row, and pauses again after the next long one', async () => {
    const short = handlerOf(1);
    let work = short;
    const fetch = pauseAfterRows((request, connection) => work(request, connection), TEST_LONG_ROW_MS, TEST_PAUSE_MS);
    expect(await rowThenNextTurn(fetch, 3)).toBeLessThan(TEST_PAUSE_MS / 2);
    work = handlerOf(TEST_LONG_ROW_MS + 1);
    expect(await rowThenNextTurn(fetch, 1)).toBeGreaterThanOrEqual(TEST_PAUSE_MS - 1);
    work = short;
    expect(await rowThenNextTurn(fetch, 3)).toBeLessThan(TEST_PAUSE_MS / 2);
  });
});
