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
  it('sleeps once within the reads that follow a long row, and not again for short ones', async () => {
    const { port } = JSON.parse(await new Promise<string>((resolve) => server.stdout!.once('data', (chunk) => resolve(String(chunk))))) as {
      port: number;
    };
    // Connections opened before: Bun has accepted them all before the first request comes.
    const sockets = await Promise.all(Array.from({ length: 4 }, () => connect(port)));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const first = timingOf(sockets[0]!, 'first');
    while (!existsSync(join(folder, 'first-started'))) await new Promise((resolve) => setTimeout(resolve, 5));
    // Each sent once the one before is answered, the first of them while the long request keeps Bun's thread.
    const later: Timing[] = [];
    for (const socket of sockets.slice(1)) later.push(await timingOf(socket, `request-${later.length + 2}`));
    const timings = [await first, ...later];
    // Bun runs immediates only after it has polled its sockets again and run that read's handlers (on a quiet
    // machine the pause falls between the second request and the third; a busy one may poll once more first):
    // one gap between two requests is the pause, and the others are a client's round trip.
    const gaps = timings.slice(1).map((timing, index) => timing.started - timings[index]!.ended);
    // Not before Bun has read again: the request sent during the long row is handled at once after it.
    expect(gaps[0]).toBeLessThan(PAUSE_MS / 2);
    expect(Math.max(...gaps)).toBeGreaterThanOrEqual(PAUSE_MS - 1);
    expect(gaps.filter((gap) => gap >= PAUSE_MS / 2)).toHaveLength(1);
  });
});
