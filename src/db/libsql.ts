import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Client, createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import type { Database } from './database.ts';
import { EmbeddedClient, type SqlClient } from './embedded.ts';
import { runtimeEngine } from './runtime-engine.ts';
import * as schema from './schema.ts';

const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), '../../db');
export const DEFAULT_DATABASE_URL = 'file:./data/svc.db';

interface OpenDatabase {
  db: Database;
  client: SqlClient;
}

interface OpenOptions {
  /** How long an embedded file's client waits in all for another process's write lock (EmbeddedClient). */
  busyWaitMs?: number;
  /**
   * False: the connection's commits never checkpoint the file (`wal_autocheckpoint = 0`), for the CLI. Its `libsql`
   * package's SQLite (3.45.1) lacks the WAL-reset fix, whose bug needs its checkpoint right after another
   * connection's, such as a Bun server's checkpoint thread makes every 10 ms; the servers checkpoint the file, and a
   * CLI alone on it checkpoints it as it closes (SQLite does so for the last connection). True by default.
   */
  checkpointInCommits?: boolean;
}

/** The path of an embedded database (`file:path`, `file:///path`, `:memory:`); undefined for a server's URL. */
export function embeddedPath(url: string): string | undefined {
  if (url !== ':memory:' && !url.startsWith('file:')) return undefined;
  const location = url.split('?')[0]!;
  return location.startsWith('file://') ? fileURLToPath(location) : location.replace(/^file:/, '');
}

/** An embedded file (`file:path`, `:memory:`) through EmbeddedClient, in WAL mode; anything else through @libsql/client. */
async function openClient(url: string, authToken: string | undefined, options: OpenOptions): Promise<SqlClient> {
  const path = embeddedPath(url);
  if (path === undefined) return createClient({ url, ...(authToken ? { authToken } : {}) });
  if (path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  const client = new EmbeddedClient(path, { busyWaitMs: options.busyWaitMs, engine: await runtimeEngine() });
  await client.execute('PRAGMA journal_mode = WAL');
  // WAL with synchronous=NORMAL: a commit survives a crash of any process; only a power loss may lose the
  // last commits. The usual setting for WAL, and it spares an fsync on every commit.
  await client.execute('PRAGMA synchronous = NORMAL');
  // No synchronous wait inside the engine: EmbeddedClient waits for another process's lock asynchronously.
  await client.execute('PRAGMA busy_timeout = 0');
  await client.execute('PRAGMA foreign_keys = ON');
  if (options.checkpointInCommits === false) await client.execute('PRAGMA wal_autocheckpoint = 0');
  return client;
}

/** Opens the database (embedded file, `:memory:` or a libsql:// server), migrated to the latest schema. */
export async function openDatabase(url: string, authToken?: string, options: OpenOptions = {}): Promise<OpenDatabase> {
  const client = await openClient(url, authToken, options);
  // drizzle's libSQL driver calls only execute, batch and migrate, which both clients provide.
  const db = drizzle(client as Client, { schema });
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch {
    // Processes started together on a new file all find it unmigrated, and the migrations of all but the first
    // then fail on the tables it made. Read again, the journal lists every migration and none runs; a real fault
    // fails again and is thrown.
    await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  }
  return { db, client };
}
