import { existsSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { CHECKPOINT_EVERY_MS, type CheckpointThreadData, RESTART_PAST_FRAMES, STOP } from './checkpoints.ts';
import type { EngineConnection } from './engine.ts';
import { runtimeEngine } from './runtime-engine.ts';

/**
 * The body of the checkpoint thread (checkpoints.ts): its own connection to the service's file makes a PASSIVE
 * checkpoint every CHECKPOINT_EVERY_MS, which copies the committed pages into the database file and syncs it, and
 * never waits for nor holds off a writer. Past RESTART_PAST_FRAMES, a RESTART one starts the WAL again.
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
try {
  connection = (await runtimeEngine())(path);
} catch (error) {
  throw failure('the database file cannot be opened', error);
}
// A checkpoint of a file that is not in WAL mode would do nothing (and its answer of -1 frames means a busy one too).
if (connection.prepare('PRAGMA journal_mode').rows([])[0]?.[0] !== 'wal') throw new Error('not in WAL mode');
// RESTART waits for the writer's lock: here, in this thread, never on the event loop.
connection.exec('PRAGMA busy_timeout = 1000');
const passive = connection.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const restart = connection.prepare('PRAGMA wal_checkpoint(RESTART)');

/** Copies what is committed, or starts the WAL again when it has grown past RESTART_PAST_FRAMES. */
function checkpoint(): void {
  try {
    // Frames -1: another connection's checkpoint is under way.
    const [[, frames]] = passive.rows([]) as [[number, number, number]];
    if (frames > RESTART_PAST_FRAMES) restart.rows([]);
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
