import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './database.ts';
import * as schema from './schema.ts';

export const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), '../../db');
export const DEFAULT_DATABASE_URL = 'file:./data/svc.db';

export interface OpenDatabase {
  db: Database;
  client: Client;
}

/** Opens a libSQL database (embedded file, `:memory:` or a libsql:// server), migrated to the latest schema. */
export async function openDatabase(url: string, authToken?: string): Promise<OpenDatabase> {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length).split('?')[0]!;
    if (path && path !== ':memory:') mkdirSync(dirname(resolve(path)), { recursive: true });
  }
  const client = createClient({ url, ...(authToken ? { authToken } : {}) });
  if (url.startsWith('file:')) {
    await client.execute('PRAGMA journal_mode = WAL');
    // WAL with synchronous=NORMAL: a commit survives a crash of any process; only a power loss may lose the
    // last commits. The usual setting for WAL, and it spares an fsync on every commit.
    await client.execute('PRAGMA synchronous = NORMAL');
    await client.execute('PRAGMA busy_timeout = 5000');
  }
  const db = drizzle(client, { schema });
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db, client };
}
