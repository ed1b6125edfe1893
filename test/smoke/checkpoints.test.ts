import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  hasWalResetFix,
  RESTART_PAST_FRAMES,
  SERVING_AUTOCHECKPOINT_FRAMES,
  SQLITE_AUTOCHECKPOINT_FRAMES,
} from '../../src/db/checkpoints.ts';
import type { EmbeddedClient } from '../../src/db/embedded.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { BIN, ROOT, tempDir } from '../support/processes.ts';

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
    // while the thread checkpoints, the thread's RESTART does past RESTART_PAST_FRAMES.
    expect(seen.restarts).toBeGreaterThanOrEqual(2);
    expect(seen.largest).toBeLessThan(RESTART_PAST_FRAMES + SERVING_AUTOCHECKPOINT_FRAMES / 2);
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
