import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { CheckpointThread, RESTART_PAST_FRAMES, SERVING_AUTOCHECKPOINT_FRAMES } from '../../src/db/checkpoints.ts';
import type { EmbeddedClient, SqlClient } from '../../src/db/embedded.ts';
import { openDatabase } from '../../src/db/libsql.ts';

function newFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'svc-checkpoints-')), 'svc.db');
}

async function autocheckpoint(client: SqlClient): Promise<number> {
  return Number((await client.execute('PRAGMA wal_autocheckpoint')).rows[0]![0]);
}

/**
 * The WAL's state as SQLite's wal-index (the -shm file, https://sqlite.org/walformat.html) holds it, read without
 * a connection (a connection's checkpoint would change it): the frames in the WAL (mxFrame, offset 16 of the header)
 * and how many of them are copied into the database file (nBackfill, offset 96), in the machine's byte order.
 */
function walIndex(path: string): { frames: number; copied: number } {
  const index = readFileSync(`${path}-shm`);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  const read = (offset: number) => (little ? index.readUInt32LE(offset) : index.readUInt32BE(offset));
  return { frames: read(16), copied: read(96) };
}

/** A batch that writes about `pages` pages. */
function write(pages: number) {
  return { sql: 'INSERT INTO filler (data) VALUES (randomblob(?))', args: [pages * 4000] };
}

describe('checkpoints in a thread of their own', () => {
  it('copy committed pages into the database file beside the serving connection, which starts the WAL again', async () => {
    const path = newFile();
    const { client } = await openDatabase(`file:${path}`);
    (client as EmbeddedClient).checkpointInThread();
    expect(await autocheckpoint(client)).toBe(SERVING_AUTOCHECKPOINT_FRAMES);
    await client.execute('CREATE TABLE filler (data BLOB)');
    // Far from the serving connection's own checkpoint, the thread copies what it commits, and again: the second
    // time the thread has surely made its first checkpoint (the one as it starts), and the WAL, wholly copied, has
    // started again with the second writes (so that its frames are theirs alone: copied only by a later checkpoint).
    for (const time of ['first', 'again']) {
      for (let batch = 0; batch < 50; batch++) await client.batch([write(10)]);
      await vi.waitFor(() => {
        const { frames, copied } = walIndex(path);
        expect(frames, time).toBeGreaterThan(0);
        expect(copied, time).toBe(frames);
      });
    }
    // Past it, the serving connection's checkpoint finds them copied and starts the WAL again, or, when that misses
    // while the thread checkpoints, the thread's RESTART does past RESTART_PAST_FRAMES. At 25,000 frames a second
    // (two and a half times a busy service's ten keyed finals a millisecond), with pauses as a server has between
    // its writes, where the RESTART takes the lock.
    const seen = { largest: 0, restarts: 0, last: walIndex(path).frames };
    for (let written = 0; written < 4 * SERVING_AUTOCHECKPOINT_FRAMES; written += 50) {
      await client.batch([write(50)]);
      await new Promise((resolve) => setTimeout(resolve, 2));
      const { frames } = walIndex(path);
      if (frames < seen.last) seen.restarts++;
      seen.largest = Math.max(seen.largest, frames);
      seen.last = frames;
    }
    expect(seen.restarts).toBeGreaterThanOrEqual(2);
    expect(seen.largest).toBeLessThan(RESTART_PAST_FRAMES + SERVING_AUTOCHECKPOINT_FRAMES / 2);
    client.close();
  });

  it('hand checkpointing back to the serving connection when the thread cannot work', async () => {
    const serving = { exec: vi.fn() };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    // A folder is no database file: the thread fails as it starts.
    new CheckpointThread(mkdtempSync(join(tmpdir(), 'svc-checkpoints-')), serving);
    await vi.waitFor(() => expect(serving.exec).toHaveBeenCalledTimes(2));
    expect(serving.exec.mock.calls).toEqual([
      [`PRAGMA wal_autocheckpoint = ${SERVING_AUTOCHECKPOINT_FRAMES}`],
      ['PRAGMA wal_autocheckpoint = 1000'],
    ]);
    expect(errors.mock.calls.map(([line]) => String(line))).toEqual([expect.stringContaining('"event":"checkpoint_thread_ended"')]);
    // The engine's message names the file: the line does not.
    expect(String(errors.mock.calls[0]![0])).toContain('the database file cannot be opened');
    expect(String(errors.mock.calls[0]![0])).not.toContain('svc-checkpoints-');
    errors.mockRestore();
  });

  it('end when stopped, without handing checkpointing back, and the process may then exit', async () => {
    const path = newFile();
    const { client } = await openDatabase(`file:${path}`);
    const serving = { exec: vi.fn() };
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const thread = new CheckpointThread(path, serving);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await thread.stop();
    expect(serving.exec.mock.calls).toEqual([[`PRAGMA wal_autocheckpoint = ${SERVING_AUTOCHECKPOINT_FRAMES}`]]);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    client.close();
  });

  it('are left to the serving connection until asked for, as for the commands', async () => {
    const path = newFile();
    const { client } = await openDatabase(`file:${path}`);
    expect(await autocheckpoint(client)).toBe(1000);
    await client.execute('CREATE TABLE filler (data BLOB)');
    for (let batch = 0; batch < 50; batch++) await client.batch([write(10)]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(walIndex(path).copied).toBe(0);
    client.close();
  });
});
