import { Worker } from 'node:worker_threads';
import { log } from '../log.ts';
import type { EngineConnection } from './engine.ts';

/** How often the thread checkpoints: a busy service commits about a hundred frames in that time. */
export const CHECKPOINT_EVERY_MS = 10;
/**
 * The serving connection's own checkpoint (SQLite's wal_autocheckpoint) while the thread runs: every 16 MB of WAL it
 * copies what came since the thread's last checkpoint and, everything copied, starts the WAL again from its beginning,
 * which a checkpoint beside a writer that keeps appending never can.
 */
export const SERVING_AUTOCHECKPOINT_FRAMES = 4_000;
/**
 * The WAL starts again only at a write that finds it wholly copied and no checkpoint reading it, so the serving
 * connection's restart can miss while the thread checkpoints: past twice its threshold, once its PASSIVE checkpoint
 * has copied everything, the thread makes a TRUNCATE one, which takes the writers' lock, starts the WAL again itself
 * and empties its file, and gives up at once while a writer or a reader holds on (a request waits for the lock as for
 * another process's, briefly).
 */
export const TRUNCATE_PAST_FRAMES = 2 * SERVING_AUTOCHECKPOINT_FRAMES;
/**
 * WAL frames (4 KiB pages: 125 MiB) past which the thread tells the server that the WAL cannot start again: only a
 * reader that keeps an older snapshot (a long backup, a transaction left open in a `sqlite3` shell) lets it grow so
 * far, and it grows as long as that reader lasts. Told again at twice as many frames, and so on, until it starts again.
 */
export const WAL_GROWING_FRAMES = 8 * SERVING_AUTOCHECKPOINT_FRAMES;
/** What the thread tells the server: the WAL has grown past WAL_GROWING_FRAMES (or twice, four times… as many). */
export interface WalGrowing {
  readonly walFrames: number;
}
/** SQLite's default: the connection checkpoints in the commit that takes the WAL past this many frames. */
export const SQLITE_AUTOCHECKPOINT_FRAMES = 1_000;
/** The message that ends the thread. */
export const STOP = 'stop';

export interface CheckpointThreadData {
  readonly path: string;
}

/** The connection that serves requests, as far as the thread's start and end concern it. */
type ServingConnection = Pick<EngineConnection, 'exec'>;

/**
 * SQLite's WAL-reset bug (3.7.0 to 3.51.2, https://www.sqlite.org/wal.html#walresetbug) corrupts a database when a
 * checkpoint that completes is followed at once by another while a second connection commits and starts the WAL
 * again: the very pattern of a checkpoint thread beside a writer. The thread runs only on a SQLite with the fix
 * (Bun's; the `libsql` package's 3.45.1 lacks it, so a Node server checkpoints in its commits as by default).
 */
export function hasWalResetFix(sqliteVersion: string): boolean {
  const [major = 0, minor = 0, patch = 0] = sqliteVersion.split('.').map(Number);
  return major * 1_000_000 + minor * 1_000 + patch >= 3_051_003;
}

/**
 * Checkpoints of an embedded file made in a thread of their own (checkpoint-thread.ts) for the most part, beside the
 * connection that serves requests. A checkpoint copies the WAL's pages into the database file and syncs both, about
 * 2.5 µs a page on this project's VM: made by the committing connection alone, as SQLite does by default, it stops
 * the event loop for 3–5 ms every hundred-odd finals (docs/scaling.md). With the thread, the serving connection's own
 * checkpoints (SERVING_AUTOCHECKPOINT_FRAMES) find nearly everything copied and synced already. RESTART checkpoints
 * in the thread alone would start the WAL again without them, but hold off every writer meanwhile: made every 2,000
 * frames, requests waited for the lock (a final's server time outside the render at 64 in flight went from 0.55 to
 * 3.4 ms); a TRUNCATE one is kept for a WAL past TRUNCATE_PAST_FRAMES. Should the thread ever end otherwise than by
 * stop(), the serving connection checkpoints as by default again.
 */
export class CheckpointThread {
  readonly #thread: Worker;
  readonly #exited: Promise<void>;
  #stopping = false;

  constructor(path: string, serving: ServingConnection) {
    const data: CheckpointThreadData = { path };
    this.#thread = new Worker(new URL('./checkpoint-thread.ts', import.meta.url), { workerData: data });
    this.#thread.on('message', ({ walFrames }: WalGrowing) => {
      log('warn', 'wal_growing', {
        wal_frames: walFrames,
        error: `the WAL holds ${walFrames} frames and cannot start again while a reader keeps an older snapshot (a long backup, an open transaction)`,
      });
    });
    // The thread never keeps a process alive: a stop ends it, and so does the process's exit. After the listener
    // above: a message listener added later refs the thread's port again (Bun and Node alike).
    this.#thread.unref();
    serving.exec(`PRAGMA wal_autocheckpoint = ${SERVING_AUTOCHECKPOINT_FRAMES}`);
    const ended = (cause: string) => {
      if (this.#stopping) return;
      this.#stopping = true;
      serving.exec(`PRAGMA wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_FRAMES}`);
      log('warn', 'checkpoint_thread_ended', { error: `checkpoint thread ended (${cause}); the server checkpoints in its commits` });
    };
    // The thread's own messages: they never quote the engine's, which name the file.
    this.#thread.once('error', (error) => ended(error.message));
    this.#exited = new Promise((resolve) => {
      this.#thread.once('exit', (code) => {
        ended(`exit code ${code}`);
        resolve();
      });
    });
  }

  /** Ends the thread, after its checkpoint in progress; resolves once it has ended. */
  stop(): Promise<void> {
    if (this.#stopping) return this.#exited;
    this.#stopping = true;
    // Waited for: the process stays up until the thread has ended.
    this.#thread.ref();
    this.#thread.postMessage(STOP);
    return this.#exited;
  }
}

/** A checkpoint thread for the file beside `serving`, where that connection's SQLite has the WAL-reset fix; else none. */
export function startCheckpointThread(path: string, serving: EngineConnection): CheckpointThread | undefined {
  const [[version]] = serving.prepare('SELECT sqlite_version()').rows([]) as [[string]];
  return hasWalResetFix(version) ? new CheckpointThread(path, serving) : undefined;
}
