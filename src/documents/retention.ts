import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { documents, idempotencyKeys, rateLimitWindows } from '../db/schema.ts';
import { MEMORY_MS } from '../idempotency/lease.ts';
import { RETENTION_MS } from './record.ts';

/**
 * Deletes what the contract no longer keeps: document records after 90 days, idempotency keys after 24 hours,
 * rate-limit windows once over. Reads already ignore them; this only frees the space.
 */
export async function purgeExpired(db: Database, now: number) {
  const [expiredDocuments, expiredKeys, expiredWindows] = await db.batch([
    db
      .delete(documents)
      .where(sql`${documents.createdAt} <= ${now - RETENTION_MS}`)
      .returning({ id: documents.id }),
    db
      .delete(idempotencyKeys)
      .where(sql`${idempotencyKeys.createdAt} <= ${now - MEMORY_MS}`)
      .returning({ key: idempotencyKeys.key }),
    db.delete(rateLimitWindows).where(sql`${rateLimitWindows.expiresAt} <= ${now}`).returning({ bucket: rateLimitWindows.bucket }),
  ]);
  return { documents: expiredDocuments.length, idempotency_keys: expiredKeys.length, rate_limit_windows: expiredWindows.length };
}
