import type { LibSQLDatabase } from 'drizzle-orm/libsql';
import type { BaseSQLiteDatabase } from 'drizzle-orm/sqlite-core';
import type * as schema from './schema.ts';

export type Schema = typeof schema;

/**
 * What the service needs of a database: drizzle's async SQLite API plus `batch`, which both libSQL and D1
 * provide. D1 has no interactive transactions, so every multi-statement change is one batch.
 */
export type Database = BaseSQLiteDatabase<'async', unknown, Schema> & Pick<LibSQLDatabase<Schema>, 'batch'>;
