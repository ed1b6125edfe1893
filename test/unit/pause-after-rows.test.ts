import { describe, expect, it } from 'vitest';
import type { Connection, FetchHandler } from '../../src/app.ts';
import { pauseAfterRows } from '../../src/runtimes/pause-after-rows.ts';

/**
 * How long a row lasted is told to the wrapper by an injected clock, so that a busy machine cannot turn a short row
 * into a long one; the pause itself is real, and is told by when the next event-loop turn comes (an immediate
 * scheduled after a row's handlers runs after the wrapper's own check, so it waits for any pause). The test's pause,
 * 250 ms, is far from what a busy machine adds to a turn.
 */
const TEST_PAUSE_MS = 250;
const TEST_LONG_ROW_MS = 20;

/** A clock the test moves by hand, and a handler that moves it by `ms` for each request, answering with its URL. */
function clockAndHandler(): { now: () => number; handler: FetchHandler; setRequestMs: (ms: number) => void } {
  let time = 0;
  let requestMs = 0;
  return {
    now: () => time,
    handler: async (request) => {
      time += requestMs;
      return new Response(request.url);
    },
    setRequestMs: (ms) => {
      requestMs = ms;
    },
  };
}

/**
 * Runs `requests` handlers in one row, as a server does with the sockets of one read; the wall-clock and CPU
 * milliseconds until the next event-loop turn.
 */
async function rowThenNextTurn(fetch: FetchHandler, requests: number): Promise<{ wait: number; cpu: number }> {
  const answers = Array.from({ length: requests }, (_, i) => fetch(new Request(`http://svc.test/${i}`)));
  const rowEnd = performance.now();
  const cpuAtRowEnd = process.cpuUsage();
  await new Promise((resolve) => setImmediate(resolve));
  const wait = performance.now() - rowEnd;
  const cpuUsed = process.cpuUsage(cpuAtRowEnd);
  expect(await Promise.all(answers.map((answer) => answer.then((response) => response.text())))).toEqual(
    Array.from({ length: requests }, (_, i) => `http://svc.test/${i}`),
  );
  return { wait, cpu: (cpuUsed.user + cpuUsed.system) / 1000 };
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

  it('sleeps the pause, without spending CPU, before the next turn after a row as long as the threshold', async () => {
    const { now, handler, setRequestMs } = clockAndHandler();
    const fetch = pauseAfterRows(handler, { longRowMs: TEST_LONG_ROW_MS, pauseMs: TEST_PAUSE_MS, now });
    setRequestMs(TEST_LONG_ROW_MS / 4);
    const { wait, cpu } = await rowThenNextTurn(fetch, 4);
    expect(wait).toBeGreaterThanOrEqual(TEST_PAUSE_MS - 1);
    expect(cpu).toBeLessThan(TEST_PAUSE_MS / 2);
  });

  it('does not pause after a shorter row, and pauses again after the next long one', async () => {
    const { now, handler, setRequestMs } = clockAndHandler();
    const fetch = pauseAfterRows(handler, { longRowMs: TEST_LONG_ROW_MS, pauseMs: TEST_PAUSE_MS, now });
    setRequestMs((TEST_LONG_ROW_MS - 0.5) / 3);
    expect((await rowThenNextTurn(fetch, 3)).wait).toBeLessThan(TEST_PAUSE_MS / 2);
    setRequestMs(TEST_LONG_ROW_MS);
    expect((await rowThenNextTurn(fetch, 1)).wait).toBeGreaterThanOrEqual(TEST_PAUSE_MS - 1);
    setRequestMs((TEST_LONG_ROW_MS - 0.5) / 3);
    expect((await rowThenNextTurn(fetch, 3)).wait).toBeLessThan(TEST_PAUSE_MS / 2);
  });
});
