import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CheckpointThread, WAL_GROWING_FRAMES } from '../../src/db/checkpoints.ts';
import type { EmbeddedClient } from '../../src/db/embedded.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { runtimeEngine } from '../../src/db/runtime-engine.ts';
import { FILLER_TABLE, fillerPages, walIndex } from './wal-index.ts';

/**
 * `bun test/support/checkpoint-probe.ts <scenario>`: the checkpoint thread (src/db/checkpoints.ts) in the runtime that
 * runs it, as test/smoke/checkpoints.test.ts needs it (the thread runs only on a SQLite with the WAL-reset fix, which
 * Bun's is and the `libsql` package's, under vitest, is not). Prints one JSON line of what the scenario saw.
 */
const scenario = process.argv[2];

function newFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'svc-checkpoints-')), 'svc.db');
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `done` holds, at most ten seconds (a thread starts slowly on a busy machine); whether it did. */
async function eventually(done: () => boolean): Promise<boolean> {
  for (const started = Date.now(); Date.now() - started < 10_000; await pause(10)) if (done()) return true;
  return done();
}

/** The console's error lines while `work` runs (the service's warn lines go there), which `work` may watch. */
async function errorLines(work: (lines: readonly string[]) => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const print = console.error;
  console.error = (line: unknown) => lines.push(String(line));
  try {
    await work(lines);
  } finally {
    console.error = print;
  }
  return lines;
}

/** A reader that keeps the snapshot it reads now (a backup's long read) until it is released. */
async function heldReader(path: string): Promise<{ release(): void }> {
  const reader = (await runtimeEngine())(path);
  reader.exec('BEGIN');
  reader.prepare('SELECT count(*) FROM filler').rows([]);
  return {
    release() {
      reader.exec('COMMIT');
      reader.close();
    },
  };
}

/** A new file with FILLER_TABLE whose connection never checkpoints: what it writes stays in the WAL. */
async function uncheckpointedFile() {
  const path = newFile();
  const { client } = await openDatabase(`file:${path}`);
  await client.execute('PRAGMA wal_autocheckpoint = 0');
  await client.execute(FILLER_TABLE);
  return { path, client };
}

/** About `frames` frames of filler written to the WAL, a statement of `batch` frames at a time. */
async function writeFrames(client: Awaited<ReturnType<typeof openDatabase>>['client'], frames: number, batch: number) {
  for (let written = 0; written < frames; written += batch) await client.batch([fillerPages(batch)]);
}

const scenarios: Record<string, () => Promise<unknown>> = {
  /**
   * Far from the serving connection's own checkpoint, the thread copies what it commits, and again: the second time
   * the thread has surely made its first checkpoint, and the WAL, wholly copied, has started again with the second
   * writes. Then 4 × 4,000 frames at 25,000 a second (two and a half times a busy service's ten keyed finals a
   * millisecond), with pauses as a server has between its writes: the WAL starts again and stays bounded.
   */
  async copies() {
    const path = newFile();
    const { client } = await openDatabase(`file:${path}`);
    const started = (client as EmbeddedClient).checkpointInThread();
    const autocheckpoint = Number((await client.execute('PRAGMA wal_autocheckpoint')).rows[0]![0]);
    await client.execute(FILLER_TABLE);
    const copied: boolean[] = [];
    for (let time = 0; time < 2; time++) {
      for (let batch = 0; batch < 50; batch++) await client.batch([fillerPages(10)]);
      copied.push(await eventually(() => walIndex(path).frames > 0 && walIndex(path).copied === walIndex(path).frames));
    }
    const seen = { largest: 0, restarts: 0, last: walIndex(path).frames };
    for (let written = 0; written < 16_000; written += 50) {
      await client.batch([fillerPages(50)]);
      await pause(2);
      const { frames } = walIndex(path);
      if (frames < seen.last) seen.restarts++;
      seen.largest = Math.max(seen.largest, frames);
      seen.last = frames;
    }
    await (client as EmbeddedClient).closeWhenThreadEnded();
    return { started, autocheckpoint, copied, restarts: seen.restarts, largest: seen.largest };
  },
  /**
   * A reader that keeps its snapshot while 12,000 frames are written (a backup's long read): the WAL cannot start
   * again meanwhile and grows past TRUNCATE_PAST_FRAMES, and every write still goes through. Once the reader is done,
   * the thread's TRUNCATE starts the WAL again with no write to do it.
   */
  async reader() {
    const path = newFile();
    const { client } = await openDatabase(`file:${path}`);
    (client as EmbeddedClient).checkpointInThread();
    await client.execute(FILLER_TABLE);
    const reader = await heldReader(path);
    let failures = 0;
    for (let written = 0; written < 12_000; written += 50) {
      await client.batch([fillerPages(50)]).catch(() => failures++);
      await pause(2);
    }
    const largest = walIndex(path).frames;
    reader.release();
    const restarted = await eventually(() => walIndex(path).frames === 0);
    await (client as EmbeddedClient).closeWhenThreadEnded();
    return { failures, largest, restarted };
  },
  /**
   * A reader that keeps its snapshot while WAL_GROWING_FRAMES and a half are written: the server is told once, with a
   * warn line that names no file. Once the reader is done the WAL starts again, and after it grows as far again
   * the server is told again.
   */
  async growing() {
    const path = newFile();
    const { client } = await openDatabase(`file:${path}`);
    (client as EmbeddedClient).checkpointInThread();
    await client.execute(FILLER_TABLE);
    const writeWhileRead = async (lines: readonly string[]) => {
      const reader = await heldReader(path);
      await writeFrames(client, WAL_GROWING_FRAMES * 1.5, 500);
      // The thread's message, before the reader lets the WAL start again.
      await eventually(() => lines.length > 0);
      reader.release();
    };
    const first = await errorLines(writeWhileRead);
    const restarted = await eventually(() => walIndex(path).frames === 0);
    const second = await errorLines(writeWhileRead);
    await (client as EmbeddedClient).closeWhenThreadEnded();
    return { first, restarted, second };
  },
  /**
   * A WAL past WAL_GROWING_FRAMES that no reader holds, as a connection that never checkpoints leaves it (a long
   * transaction, or the file after a crash): the thread copies it and starts it again, and tells nothing.
   */
  async copiable() {
    const { path, client } = await uncheckpointedFile();
    await writeFrames(client, WAL_GROWING_FRAMES * 1.1, 500);
    const before = walIndex(path).frames;
    let restarted = false;
    const lines = await errorLines(async () => {
      (client as EmbeddedClient).checkpointInThread();
      restarted = await eventually(() => walIndex(path).frames === 0);
      // Time for a message the thread would have sent as it did so.
      await pause(300);
    });
    await (client as EmbeddedClient).closeWhenThreadEnded();
    return { before, restarted, lines };
  },
  /**
   * A reader holding the WAL at 2.2 × WAL_GROWING_FRAMES when the thread starts: told once, not once for each doubling
   * that the WAL is already past.
   */
  async farPast() {
    const { path, client } = await uncheckpointedFile();
    const reader = await heldReader(path);
    await writeFrames(client, WAL_GROWING_FRAMES * 2.2, 1000);
    const lines = await errorLines(async (seen) => {
      (client as EmbeddedClient).checkpointInThread();
      await eventually(() => seen.length > 0);
      // Twenty more of the thread's ticks, each of which would tell of the next doubling the WAL is past.
      await pause(200);
    });
    reader.release();
    await (client as EmbeddedClient).closeWhenThreadEnded();
    return { lines };
  },
  /** A thread started and never stopped: the process ends by itself all the same. */
  async unstopped() {
    const path = newFile();
    const { client } = await openDatabase(`file:${path}`);
    const started = (client as EmbeddedClient).checkpointInThread();
    await client.execute(FILLER_TABLE);
    await pause(50);
    return { started };
  },
  /** A folder is no database file: the thread fails as it starts, and the serving connection checkpoints again. */
  async fails() {
    const execs: string[] = [];
    const lines = await errorLines(async () => {
      new CheckpointThread(mkdtempSync(join(tmpdir(), 'svc-checkpoints-')), { exec: (sql) => void execs.push(sql) });
      await eventually(() => execs.length === 2);
    });
    return { execs, lines };
  },
  /** Stopped, the thread ends without handing checkpointing back, and the process then exits by itself. */
  async stops() {
    const path = newFile();
    const { client } = await openDatabase(`file:${path}`);
    const execs: string[] = [];
    const lines = await errorLines(async () => {
      const thread = new CheckpointThread(path, { exec: (sql) => void execs.push(sql) });
      await pause(50);
      await thread.stop();
    });
    client.close();
    return { execs, lines };
  },
};

console.log(JSON.stringify(await scenarios[scenario!]!()));
