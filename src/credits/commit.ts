import { and, eq, sql } from 'drizzle-orm';
import { hasCredit } from '../accounts/store.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { sendBatch } from '../db/batch.ts';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { DATABASE_RETRY_AFTER_SECONDS, databaseUnavailable } from '../db/failures.ts';
import { statementOf, statementsPerDatabase } from '../db/prepared.ts';
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

/** The placeholders of the commit's statements, bound per request with commitValues. */
const ROW = {
  id: sql.placeholder('id'),
  accountId: sql.placeholder('account_id'),
  keyId: sql.placeholder('key_id'),
  template: sql.placeholder('template'),
  templateVersion: sql.placeholder('template_version'),
  mode: sql.placeholder('mode'),
  paper: sql.placeholder('paper'),
  locale: sql.placeholder('locale'),
  reference: sql.placeholder('reference'),
  source: sql.placeholder('source'),
  creditsConsumed: sql.placeholder('credits_consumed'),
  sha256: sql.placeholder('sha256'),
  bytes: sql.placeholder('bytes'),
  createdAt: sql.placeholder('created_at'),
};
const LEASE = { accountId: ROW.accountId, key: sql.placeholder('idempotency_key'), leaseId: sql.placeholder('lease_id') };

/** The commit's statements, built once per database for a final or a preview, with or without a lease. */
const commitStatements = statementsPerDatabase((db, { charge, leased }: { charge: boolean; leased: boolean }) => {
  const credit = charge ? hasCredit(sql`${ROW.accountId}`) : sql`1 = 1`;
  const holdsLease = leased ? sql`${EXISTS} (SELECT 1 FROM ${idempotencyKeys} WHERE ${heldBy(LEASE)})` : sql`1 = 1`;
  const recorded = sql`${EXISTS} (SELECT 1 FROM ${documents} WHERE id = ${ROW.id})`;
  const insert = db.all<{ id: string }>(sql`
    INSERT INTO ${documents} (id, account_id, key_id, template, template_version, mode, paper, locale, reference, source,
      credits_consumed, sha256, bytes, created_at)
    SELECT ${ROW.id}, ${ROW.accountId}, ${ROW.keyId}, ${ROW.template}, ${ROW.templateVersion}, ${ROW.mode}, ${ROW.paper},
      ${ROW.locale}, ${ROW.reference}, ${ROW.source}, ${ROW.creditsConsumed}, ${ROW.sha256}, ${ROW.bytes}, ${ROW.createdAt}
    WHERE ${credit} AND ${holdsLease}
    RETURNING id`);
  const balance = charge
    ? db
        .update(accounts)
        .set({ creditsRemaining: sql`credits_remaining - 1` })
        .where(and(eq(accounts.id, ROW.accountId), recorded))
        .returning({ credits: accounts.creditsRemaining })
    : db.select({ credits: accounts.creditsRemaining }).from(accounts).where(eq(accounts.id, ROW.accountId));
  const complete = leased
    ? [
        db
          .update(idempotencyKeys)
          .set({ documentId: sql`${ROW.id}` })
          .where(and(heldBy(LEASE), recorded)),
      ]
    : [];
  return [insert, balance, ...complete].map(statementOf);
});

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
  const values = {
    id: row.id,
    account_id: row.accountId,
    key_id: row.keyId,
    template: row.template,
    template_version: row.templateVersion,
    mode: row.mode,
    paper: row.paper,
    locale: row.locale,
    reference: row.reference ?? null,
    source: row.source,
    credits_consumed: row.creditsConsumed,
    sha256: row.sha256,
    bytes: row.bytes,
    created_at: row.createdAt,
    ...(lease ? { idempotency_key: lease.key, lease_id: lease.leaseId } : {}),
  };
  const statements = commitStatements(db, { charge, leased: lease !== undefined }).map((statement) => statement.bind(values));

  let results: readonly unknown[];
  try {
    results = await sendBatch(db, statements);
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
