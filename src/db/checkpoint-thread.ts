import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import {
  CHECKPOINT_EVERY_MS,
  type CheckpointThreadData,
  STOP,
  TRUNCATE_PAST_FRAMES,
  WAL_GROWING_FRAMES,
  type WalGrowing,
} from './checkpoints.ts';
import type { EngineConnection, EngineStatement } from './engine.ts';
import { runtimeEngine } from './runtime-engine.ts';

/**
 * The body of the checkpoint thread (checkpoints.ts): its own connection to the service's file makes a PASSIVE
 * checkpoint every CHECKPOINT_EVERY_MS, which copies the committed pages into the database file and syncs it, and
 * never waits for nor holds off a writer. Past TRUNCATE_PAST_FRAMES, once a PASSIVE one has copied them all, a
 * TRUNCATE one starts the WAL again.
 */
const { path } = workerData as CheckpointThreadData;

/** A failure of this thread, told without the engine's message, which names the file (logged by checkpoints.ts). */
function failure(what: string, error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  return new Error(typeof code === 'string' && code !== '' ? `${what} (${code})` : what);
}

// The serving connection made the file: opened here, a path without one would make an empty database.
if (!existsSync(path)) throw new Error('the database file does not exist');
let connection: EngineConnection;
let journalMode: unknown;
let passive: EngineStatement;
let truncate: EngineStatement;
try {
  connection = (await runtimeEngine())(path);
  journalMode = connection.prepare('PRAGMA journal_mode').rows([])[0]?.[0];
  // No wait for a lock: a TRUNCATE that waited for a reader (a backup's long read) would hold the writers off as long.
  connection.exec('PRAGMA busy_timeout = 0');
  passive = connection.prepare('PRAGMA wal_checkpoint(PASSIVE)');
  truncate = connection.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
} catch (error) {
  throw failure('the database file cannot be opened', error);
}
// A checkpoint of a file that is not in WAL mode would do nothing (and its answer of -1 frames means a busy one too).
if (journalMode !== 'wal') throw new Error('not in WAL mode');

/** The WAL's frames at which the server is told next that it grows (WAL_GROWING_FRAMES). */
let tellAt = WAL_GROWING_FRAMES;
/** The WAL's frames at the checkpoint before: they fall only when the WAL starts again. */
let framesBefore = 0;

/** Tells the server when the WAL has grown past `tellAt`; once it has started again, from WAL_GROWING_FRAMES anew. */
function tellIfGrowing(frames: number): void {
  // -1 (checkpoint, below): nothing was read.
  if (frames < 0) return;
  if (frames < framesBefore) tellAt = WAL_GROWING_FRAMES;
  framesBefore = frames;
  if (frames >= tellAt) {
    parentPort!.postMessage({ walFrames: frames } satisfies WalGrowing);
    // Past the next doubling of what is there now: a WAL first seen far past the threshold is told of once.
    while (tellAt <= frames) tellAt *= 2;
  }
}

/**
 * Copies what is committed, or starts the WAL again when it has grown past TRUNCATE_PAST_FRAMES and is wholly copied:
 * then the TRUNCATE holds the writers off only to find that so and start it again, and gives up at once (busy) while
 * a reader still reads it, to try again CHECKPOINT_EVERY_MS later.
 */
function checkpoint(): void {
  try {
    // Frames -1: another connection's checkpoint is under way.
    const [[, frames, copied]] = passive.rows([]) as [[number, number, number]];
    // A TRUNCATE that was not busy has started the WAL again: what the PASSIVE one counted is gone.
    const truncated = frames > TRUNCATE_PAST_FRAMES && copied === frames && (truncate.rows([]) as [[number]])[0][0] === 0;
    tellIfGrowing(truncated ? 0 : frames);
  } catch (error) {
    throw failure('a checkpoint failed', error);
  }
}

const timer = setInterval(checkpoint, CHECKPOINT_EVERY_MS);
parentPort!.on('message', (message) => {
  if (message !== STOP) return;
  clearInterval(timer);
  connection.close();
  parentPort!.close();
});
