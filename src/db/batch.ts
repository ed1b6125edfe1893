import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from './database.ts';

/**
 * Sends statements as one batch: one round trip, one transaction (D1 has no other). Drizzle's `batch` takes a
 * non-empty tuple; a list known only at run time is given as one here, and an empty list sends nothing.
 */
export async function sendBatch(db: Database, statements: readonly BatchItem<'sqlite'>[]): Promise<unknown[]> {
  const [first, ...rest] = statements;
  if (!first) return [];
  return db.batch([first, ...rest]);
}
