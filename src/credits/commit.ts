import { and, eq, sql } from 'drizzle-orm';
import { hasCredit } from '../accounts/store.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import type { Database } from '../db/database.ts';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '../db/failures.ts';
import { accounts, documents, idempotencyKeys } from '../db/schema.ts';
import { heldBy, type Lease, readKey } from '../idempotency/lease.ts';

type NewDocumentRow = typeof documents.$inferInsert & { id: string; accountId: string };

type CommitOutcome = { kind: 'committed'; creditsRemaining: number } | { kind: 'no_credit' } | { kind: 'lease_lost' };

/**
 * The database refused the batch before running any of it (its lock stayed held, or it could not be reached
 * before sending): nothing is recorded or charged, so the answer is a plain 503 and the key is given back,
 * not 500 commit_status_unknown.
 */
function busyBeforeCommit(): ApiError {
  return new ApiError('service_busy', {
    message: `The database was busy; the document was not recorded and nothing was charged. Retry after ${HEADERS.retryAfter} seconds.`,
    headers: { [HEADERS.retryAfter]: String(DATABASE_RETRY_AFTER_SECONDS) },
  });
}

/**
 * The one atomic step after the PDF exists: a batch that records the document, takes the credit (final) and
 * completes the idempotency key. The record is inserted only while the account has a credit and, with a key,
 * only while this attempt still holds the lease; the charge and the key update happen only if that record now
 * exists. So a taken-over attempt commits nothing, and no document is charged twice or the balance driven
 * below zero, with any number of processes or isolates on the database. Throws 503 service_busy when the
 * database refused the batch before running it; any other failure leaves the outcome unknown to the caller.
 */
export async function commitDocument(
  db: Database,
  input: { row: NewDocumentRow; charge: boolean; lease: Lease | undefined },
): Promise<CommitOutcome> {
  const { row, charge, lease } = input;
  const credit = charge ? hasCredit(row.accountId) : sql`1 = 1`;
  const holdsLease = lease ? sql`EXISTS (SELECT 1 FROM ${idempotencyKeys} WHERE ${heldBy(lease)})` : sql`1 = 1`;
  const recorded = sql`EXISTS (SELECT 1 FROM ${documents} WHERE id = ${row.id})`;

  const insert = db.all<{ id: string }>(sql`
    INSERT INTO ${documents} (id, account_id, key_id, template, template_version, mode, paper, locale, reference, source,
      credits_consumed, sha256, bytes, created_at)
    SELECT ${row.id}, ${row.accountId}, ${row.keyId}, ${row.template}, ${row.templateVersion}, ${row.mode}, ${row.paper},
      ${row.locale}, ${row.reference ?? null}, ${row.source}, ${row.creditsConsumed}, ${row.sha256}, ${row.bytes}, ${row.createdAt}
    WHERE ${credit} AND ${holdsLease}
    RETURNING id`);
  const balance = charge
    ? db
        .update(accounts)
        .set({ creditsRemaining: sql`credits_remaining - 1` })
        .where(and(eq(accounts.id, row.accountId), recorded))
        .returning({ credits: accounts.creditsRemaining })
    : db.select({ credits: accounts.creditsRemaining }).from(accounts).where(eq(accounts.id, row.accountId));
  const complete = lease
    ? [
        db
          .update(idempotencyKeys)
          .set({ documentId: row.id })
          .where(and(heldBy(lease), recorded)),
      ]
    : [];

  let results: unknown[];
  try {
    results = await db.batch([insert, balance, ...complete]);
  } catch (error) {
    if (databaseUnavailable(error)?.nothingWritten) throw busyBeforeCommit();
    throw error;
  }
  const [inserted, credits] = results as [{ id: string }[], { credits: number }[]];
  if (inserted.length === 1) return { kind: 'committed', creditsRemaining: credits[0]!.credits };
  if (!lease) return { kind: 'no_credit' };
  let held: Awaited<ReturnType<typeof readKey>>;
  try {
    held = await readKey(db, lease);
  } catch (error) {
    // The batch recorded and charged nothing; whether the key was taken over is unknown, and does not change
    // the answer while the database is busy.
    if (databaseUnavailable(error)) throw busyBeforeCommit();
    throw error;
  }
  return held?.leaseId === lease.leaseId ? { kind: 'no_credit' } : { kind: 'lease_lost' };
}
