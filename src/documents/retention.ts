import { sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { documents, emailChanges, idempotencyKeys, rateLimitWindows, sessions, signInLinks } from '../db/schema.ts';
import { MEMORY_MS } from '../idempotency/lease.ts';
import { RETENTION_MS } from './record.ts';

/**
 * Deletes what the contract no longer keeps: document records after 90 days, idempotency keys after 24 hours,
 * rate-limit windows once over, Settings sessions, sign-in links and address-change links once expired. Reads already ignore them; this
 * only frees the space.
 */
export async function purgeExpired(db: Database, now: number) {
  const [expiredDocuments, expiredKeys, expiredWindows, expiredSessions, expiredLinks, expiredChanges] = await db.batch([
    db
      .delete(documents)
      .where(sql`${documents.createdAt} <= ${now - RETENTION_MS}`)
      .returning({ id: documents.id }),
    db
      .delete(idempotencyKeys)
      .where(sql`${idempotencyKeys.createdAt} <= ${now - MEMORY_MS}`)
      .returning({ key: idempotencyKeys.key }),
    db.delete(rateLimitWindows).where(sql`${rateLimitWindows.expiresAt} <= ${now}`).returning({ bucket: rateLimitWindows.bucket }),
    db.delete(sessions).where(sql`${sessions.expiresAt} <= ${now}`).returning({ tokenHash: sessions.tokenHash }),
    db.delete(signInLinks).where(sql`${signInLinks.expiresAt} <= ${now}`).returning({ tokenHash: signInLinks.tokenHash }),
    db.delete(emailChanges).where(sql`${emailChanges.expiresAt} <= ${now}`).returning({ tokenHash: emailChanges.tokenHash }),
  ]);
  return {
    documents: expiredDocuments.length,
    idempotency_keys: expiredKeys.length,
    rate_limit_windows: expiredWindows.length,
    sessions: expiredSessions.length,
    sign_in_links: expiredLinks.length,
    email_changes: expiredChanges.length,
  };
}
