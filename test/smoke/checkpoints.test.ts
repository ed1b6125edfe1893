import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  hasWalResetFix,
  SERVING_AUTOCHECKPOINT_FRAMES,
  SQLITE_AUTOCHECKPOINT_FRAMES,
  TRUNCATE_PAST_FRAMES,
  WAL_GROWING_FRAMES,
} from '../../src/db/checkpoints.ts';
import type { EmbeddedClient } from '../../src/db/embedded.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { seedDatabaseFile } from '../support/accounts.ts';
import { finalInvoice } from '../support/documents.ts';
import { BIN, freePort, ROOT, type RunningServer, startBun, startNode, tempDir } from '../support/processes.ts';
import { walIndex } from '../support/wal-index.ts';

/** A scenario of test/support/checkpoint-probe.ts run under Bun, whose SQLite has the WAL-reset fix. */
async function probe<T>(scenario: string): Promise<T> {
  const { stdout } = await promisify(execFile)(join(BIN, 'bun'), ['test/support/checkpoint-probe.ts', scenario], {
    cwd: ROOT,
    timeout: 20_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}

describe('checkpoints in a thread of their own, under Bun', () => {
  it('copy committed pages into the database file beside the serving connection, which starts the WAL again', async () => {
    const seen = await probe<{ started: boolean; autocheckpoint: number; copied: boolean[]; restarts: number; largest: number }>('copies');
    expect(seen.started).toBe(true);
    expect(seen.autocheckpoint).toBe(SERVING_AUTOCHECKPOINT_FRAMES);
    expect(seen.copied).toEqual([true, true]);
    // Past it, the serving connection's checkpoint finds them copied and starts the WAL again, or, when that misses
    // while the thread checkpoints, the thread's TRUNCATE does past TRUNCATE_PAST_FRAMES.
    expect(seen.restarts).toBeGreaterThanOrEqual(2);
    expect(seen.largest).toBeLessThan(TRUNCATE_PAST_FRAMES + SERVING_AUTOCHECKPOINT_FRAMES / 2);
  }, 30_000);

  it('never hold writes off for a long reader, and start the WAL again once it is done', async () => {
    const seen = await probe<{ failures: number; largest: number; restarted: boolean }>('reader');
    expect(seen.failures).toBe(0);
    expect(seen.largest).toBeGreaterThan(TRUNCATE_PAST_FRAMES);
    expect(seen.restarted).toBe(true);
  }, 30_000);

  it('tell the server once when a reader keeps the WAL from starting again past WAL_GROWING_FRAMES, and again after it did', async () => {
    const { first, restarted, second } = await probe<{ first: string[]; restarted: boolean; second: string[] }>('growing');
    for (const lines of [first, second]) {
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0]!);
      expect(line).toMatchObject({ level: 'warn', event: 'wal_growing' });
      expect(line.wal_frames).toBeGreaterThanOrEqual(WAL_GROWING_FRAMES);
      expect(line.wal_frames).toBeLessThan(2 * WAL_GROWING_FRAMES);
      expect(lines[0]).not.toContain('svc-checkpoints-');
    }
    expect(restarted).toBe(true);
  }, 30_000);

  it('tell nothing of a WAL past WAL_GROWING_FRAMES that no reader holds: they copy it and start it again', async () => {
    const { before, restarted, lines } = await probe<{ before: number; restarted: boolean; lines: string[] }>('copiable');
    expect(before).toBeGreaterThan(WAL_GROWING_FRAMES);
    expect(restarted).toBe(true);
    expect(lines).toEqual([]);
  }, 30_000);

  it('tell once of a held WAL already past two doublings of WAL_GROWING_FRAMES when they start', async () => {
    const { lines } = await probe<{ lines: string[] }>('farPast');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!).wal_frames).toBeGreaterThanOrEqual(2 * WAL_GROWING_FRAMES);
  }, 30_000);

  it('never keep a process alive: one that started them and never stopped them exits by itself', async () => {
    expect(await probe<{ started: boolean }>('unstopped')).toEqual({ started: true });
  }, 30_000);

  it('hand checkpointing back to the serving connection when the thread cannot work, with a log line that names no file', async () => {
    const { execs, lines } = await probe<{ execs: string[]; lines: string[] }>('fails');
    expect(execs).toEqual([
      `PRAGMA wal_autocheckpoint = ${SERVING_AUTOCHECKPOINT_FRAMES}`,
      `PRAGMA wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_FRAMES}`,
    ]);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', event: 'checkpoint_thread_ended' });
    expect(lines[0]).toContain('the database file cannot be opened');
    expect(lines[0]).not.toContain('svc-checkpoints-');
  }, 30_000);

  it('end when stopped, without handing checkpointing back, and the process then exits', async () => {
    const { execs, lines } = await probe<{ execs: string[]; lines: string[] }>('stops');
    expect(execs).toEqual([`PRAGMA wal_autocheckpoint = ${SERVING_AUTOCHECKPOINT_FRAMES}`]);
    expect(lines).toEqual([]);
  }, 30_000);
});

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

/** A server of `start` on a new file that has made three finals; the file's path. */
async function serverThatWrote(start: typeof startBun): Promise<string> {
  const { url, client, key } = await seedDatabaseFile({ plan: 'pro', credits: 10 });
  client.close();
  const server = await start({ DATABASE_URL: url }, await freePort());
  servers.push(server);
  for (const number of ['WAL-1', 'WAL-2', 'WAL-3']) {
    const answer = await fetch(`${server.url}/api/v1/documents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(finalInvoice({ invoice_number: number })),
    });
    expect(answer.status).toBe(201);
  }
  return url.replace(/^file:/, '');
}

describe('a server', () => {
  it("under Bun copies its commits into the database file at once (the thread's checkpoints)", async () => {
    const path = await serverThatWrote(startBun);
    // Far below the serving connection's own checkpoint: only the thread copies them.
    await vi.waitFor(() => {
      const { frames, copied } = walIndex(path);
      expect(frames).toBeGreaterThan(0);
      expect(copied).toBe(frames);
    });
  }, 30_000);

  it('under Node leaves them in the WAL until its commits reach SQLite’s own checkpoint', async () => {
    const path = await serverThatWrote(startNode);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(walIndex(path).frames).toBeGreaterThan(0);
    expect(walIndex(path).copied).toBe(0);
  }, 30_000);
});

describe('the checkpoint thread', () => {
  it('runs only on a SQLite with the fix of the WAL-reset bug (3.51.3 or later)', () => {
    expect(['3.45.1', '3.51.2', '3.50.9', '2.99.99'].map(hasWalResetFix)).toEqual([false, false, false, false]);
    expect(['3.51.3', '3.52.0', '3.54.1', '4.0.0'].map(hasWalResetFix)).toEqual([true, true, true, true]);
  });

  it("is not started on the `libsql` package's SQLite 3.45.1 (Node, the CLI), which checkpoints in its commits", async () => {
    const { client } = await openDatabase(`file:${join(tempDir('svc-checkpoints-'), 'svc.db')}`);
    expect((client as EmbeddedClient).checkpointInThread()).toBe(false);
    expect(Number((await client.execute('PRAGMA wal_autocheckpoint')).rows[0]![0])).toBe(SQLITE_AUTOCHECKPOINT_FRAMES);
    client.close();
  });

  it('is not started for an in-memory database, which has no WAL', async () => {
    const { client } = await openDatabase(':memory:');
    expect((client as EmbeddedClient).checkpointInThread()).toBe(false);
    client.close();
  });
});
