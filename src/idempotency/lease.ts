import { and, eq, getTableColumns, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { LIMITS } from '../contract/limits.ts';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { idempotencyKeys } from '../db/schema.ts';

const TAKEOVER_AFTER_MS = LIMITS.idempotencyTakeoverSeconds * 1000;
export const MEMORY_MS = LIMITS.idempotencyMemorySeconds * 1000;

export interface Lease {
  accountId: string;
  key: string;
  leaseId: string;
}

type LeaseDecision =
  | { kind: 'acquired'; lease: Lease }
  | { kind: 'replay'; documentId: string }
  | { kind: 'in_progress' }
  | { kind: 'reused' };

/** A lease's values, or placeholders for them in a statement built once (src/db/prepared.ts). */
type LeaseInSql = { readonly [Field in keyof Lease]: string | Placeholder };

function keyRow({ accountId, key }: Pick<LeaseInSql, 'accountId' | 'key'>): SQL {
  return and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key))!;
}

/** The key's row while this attempt still holds it and no document is recorded under it. */
export function heldBy(lease: LeaseInSql): SQL {
  return and(keyRow(lease), eq(idempotencyKeys.leaseId, lease.leaseId), isNull(idempotencyKeys.documentId))!;
}

/** The key's row as it is now, whichever attempt holds it. */
export async function readKey(db: Database, key: Pick<Lease, 'accountId' | 'key'>) {
  const [row] = await db.select().from(idempotencyKeys).where(keyRow(key));
  return row;
}

/** Gives a key back when the attempt ends before a document exists, so a corrected retry can use it. */
export async function releaseLease(db: Database, lease: Lease): Promise<void> {
  await db.delete(idempotencyKeys).where(heldBy(lease));
}

/** An attempt's values: the key, this request's fingerprint, a fresh lease id and the time. */
interface LeaseAttempt {
  readonly key: string;
  readonly fingerprint: string;
  readonly leaseId: string;
  readonly now: number;
}

/** The placeholders of the lease statements below, built once (src/db/prepared.ts) and bound with attemptValues. */
const ATTEMPT = {
  key: sql.placeholder('idempotency_key'),
  fingerprint: sql.placeholder('fingerprint'),
  leaseId: sql.placeholder('lease_id'),
  now: sql.placeholder('now'),
  forgottenBefore: sql.placeholder('forgotten_before'),
  deadBefore: sql.placeholder('dead_before'),
};

/** The values of the lease statements' placeholders for an attempt. */
export function attemptValues(attempt: LeaseAttempt): Record<string, string | number> {
  const { key, fingerprint, leaseId, now } = attempt;
  return {
    idempotency_key: key,
    fingerprint,
    lease_id: leaseId,
    now,
    forgotten_before: now - MEMORY_MS,
    dead_before: now - TAKEOVER_AFTER_MS,
  };
}

/** The key's row for the account `accountId` (SQL read in the same batch: the caller signing in). */
const attemptRow = (accountId: SQL) => sql`${idempotencyKeys.accountId} = ${accountId} AND ${idempotencyKeys.key} = ${ATTEMPT.key}`;

/** leaseInBatch's condition for taking a key already there: forgotten, or a dead attempt at the same request. */
const takeable = sql`(${idempotencyKeys.createdAt} <= ${ATTEMPT.forgottenBefore}
    OR (${idempotencyKeys.documentId} IS NULL AND ${idempotencyKeys.fingerprint} = ${ATTEMPT.fingerprint}
        AND ${idempotencyKeys.leaseStartedAt} < ${ATTEMPT.deadBefore}))`;

/** This attempt may take the key: no row, or one it may take over. SQL, read before the lease is taken. */
export function leaseFree(accountId: SQL): SQL {
  return sql`NOT ${EXISTS} (SELECT 1 FROM ${idempotencyKeys} WHERE ${attemptRow(accountId)} AND NOT ${takeable})`;
}

/** The key now holds this attempt's lease (it took it earlier in the batch). */
export function leaseTaken(accountId: SQL): SQL {
  return sql`${EXISTS} (SELECT 1 FROM ${idempotencyKeys} WHERE ${attemptRow(accountId)} AND ${idempotencyKeys.leaseId} = ${ATTEMPT.leaseId})`;
}

/**
 * Who holds a key, decided by statements of a batch (one transaction), the key taken only where `condition` holds:
 * the key's row as it was, then one INSERT … ON CONFLICT DO UPDATE by which a new key, a key forgotten after 24
 * hours, or a running attempt older than 35 seconds with the same request is taken by this attempt (a fresh lease
 * id, so the earlier attempt's commit no longer matches); anything else is left as it is. Its answer, the lease
 * id, tells whether it took the key. Placeholders: bound with attemptValues.
 */
export function leaseInBatch(db: Database, accountId: SQL, condition: SQL) {
  const { key, fingerprint, leaseId, now } = ATTEMPT;
  return [
    db
      .select({ ...getTableColumns(idempotencyKeys), takeable: sql<number>`${takeable}` })
      .from(idempotencyKeys)
      .where(attemptRow(accountId)),
    db
      .insert(idempotencyKeys)
      .select(sql`SELECT ${accountId}, ${key}, ${fingerprint}, ${leaseId}, ${now}, NULL, ${now} WHERE ${condition}`)
      .onConflictDoUpdate({
        target: [idempotencyKeys.accountId, idempotencyKeys.key],
        set: {
          fingerprint: sql`${fingerprint}`,
          leaseId: sql`${leaseId}`,
          leaseStartedAt: sql`${now}`,
          createdAt: sql`${now}`,
          documentId: null,
        },
        // Without `condition` the SELECT proposes no row, so nothing conflicts: the update needs only takeable.
        setWhere: takeable,
      })
      .returning({ leaseId: idempotencyKeys.leaseId }),
  ] as const;
}

type KeyRow = typeof idempotencyKeys.$inferSelect & { takeable: number };

/** The decision of leaseInBatch's statements, from their answers; `free` when the key was free but not taken (`condition` did not hold). */
export function leaseDecisionOf(
  attempt: Pick<LeaseAttempt, 'key' | 'fingerprint' | 'leaseId'> & { accountId: string },
  [before, taken]: readonly unknown[],
): LeaseDecision | { kind: 'free' } {
  const { accountId, key, leaseId } = attempt;
  if ((taken as { leaseId: string }[])[0]?.leaseId === leaseId) return { kind: 'acquired', lease: { accountId, key, leaseId } };
  const row = (before as KeyRow[])[0];
  if (!row || row.takeable) return { kind: 'free' };
  if (row.fingerprint !== attempt.fingerprint) return { kind: 'reused' };
  if (row.documentId !== null) return { kind: 'replay', documentId: row.documentId };
  return { kind: 'in_progress' };
}
