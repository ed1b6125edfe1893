import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect as connectTcp, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, tempDir } from '../support/processes.ts';
import { rawExchange } from '../support/raw-http.ts';

/** A connection open before any request is sent on it. */
function connect(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connectTcp(port, '127.0.0.1', () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Sends one request on a connection already open; the timing its answer tells. */
async function timingOf(socket: Socket, path: string): Promise<Timing> {
  const answer = await rawExchange(socket, `GET /${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
  return JSON.parse(answer!.body) as Timing;
}

interface Timing {
  started: number;
  ended: number;
}

/** Far from the millisecond or two between two rows without a pause, and from what a busy machine adds. */
const PAUSE_MS = 300;
const folder = tempDir('svc-row-pause-');
const server = spawn(join(BIN, 'bun'), ['test/support/row-pause-server.ts', folder, String(PAUSE_MS)], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
});
afterAll(() => server.kill());

describe('pauseAfterRows in Bun.serve', () => {
  it('sleeps once Bun has run a long row and the read after it, before it reads again', async () => {
    const { port } = JSON.parse(await new Promise<string>((resolve) => server.stdout!.once('data', (chunk) => resolve(String(chunk))))) as {
      port: number;
    };
    // Three connections opened before: Bun has accepted them all before the first request comes.
    const [one, two, three] = await Promise.all([connect(port), connect(port), connect(port)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const first = timingOf(one!, 'first');
    while (!existsSync(join(folder, 'first-started'))) await new Promise((resolve) => setTimeout(resolve, 5));
    // Sent while the first request's handler keeps Bun's thread: read by the next poll, after that row.
    const second = await timingOf(two!, 'second');
    // Sent once the second is answered: read by the poll after that one.
    const third = await timingOf(three!, 'third');
    const firstTiming = await first;
    // Bun runs timers and immediates only after it has polled its sockets again and run that read's handlers: the
    // second request follows the first at once, and the pause comes before the third is read.
    expect(second.started - firstTiming.ended).toBeLessThan(PAUSE_MS / 2);
    expect(third.started - second.ended).toBeGreaterThanOrEqual(PAUSE_MS - 1);
  });
});
