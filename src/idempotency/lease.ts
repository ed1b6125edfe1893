import { and, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { LIMITS } from '../contract/limits.ts';
import type { Database } from '../db/database.ts';
import { preparedPerDatabase } from '../db/prepared.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { newId } from '../ids.ts';

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

const leaseUpsert = preparedPerDatabase((db) => {
  const now = sql.placeholder('now');
  const fingerprint = sql.placeholder('fingerprint');
  const leaseId = sql.placeholder('leaseId');
  return db
    .insert(idempotencyKeys)
    .values({
      accountId: sql.placeholder('accountId'),
      key: sql.placeholder('key'),
      fingerprint,
      leaseId,
      leaseStartedAt: now,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [idempotencyKeys.accountId, idempotencyKeys.key],
      set: {
        fingerprint: sql`${fingerprint}`,
        leaseId: sql`${leaseId}`,
        leaseStartedAt: sql`${now}`,
        createdAt: sql`${now}`,
        documentId: null,
      },
      setWhere: sql`${idempotencyKeys.createdAt} <= ${sql.placeholder('forgottenBefore')}
        OR (${idempotencyKeys.documentId} IS NULL AND ${idempotencyKeys.fingerprint} = ${fingerprint}
            AND ${idempotencyKeys.leaseStartedAt} < ${sql.placeholder('takeoverBefore')})`,
    })
    .returning({ leaseId: idempotencyKeys.leaseId })
    .prepare();
});

function keyRow({ accountId, key }: Pick<Lease, 'accountId' | 'key'>): SQL {
  return and(eq(idempotencyKeys.accountId, accountId), eq(idempotencyKeys.key, key))!;
}

/** The key's row while this attempt still holds it and no document is recorded under it. */
export function heldBy(lease: Lease): SQL {
  return and(keyRow(lease), eq(idempotencyKeys.leaseId, lease.leaseId), isNull(idempotencyKeys.documentId))!;
}

/** The key's row as it is now, whichever attempt holds it. */
export async function readKey(db: Database, key: Pick<Lease, 'accountId' | 'key'>) {
  const [row] = await db.select().from(idempotencyKeys).where(keyRow(key));
  return row;
}

/**
 * One INSERT … ON CONFLICT DO UPDATE decides who holds a key: a new key, a key forgotten after 24 hours, or a
 * running attempt older than 35 seconds with the same request is taken by this attempt (a fresh lease id, so
 * the earlier attempt's commit no longer matches); anything else is left as it is and read back.
 */
export async function acquireLease(
  db: Database,
  input: { accountId: string; key: string; fingerprint: string; now: number },
): Promise<LeaseDecision> {
  const leaseId = newId('lease');
  const { accountId, key, fingerprint, now } = input;
  const [taken] = await leaseUpsert(db).all({
    accountId,
    key,
    fingerprint,
    leaseId,
    now,
    forgottenBefore: now - MEMORY_MS,
    takeoverBefore: now - TAKEOVER_AFTER_MS,
  });
  if (taken?.leaseId === leaseId) return { kind: 'acquired', lease: { accountId, key, leaseId } };

  const row = await readKey(db, { accountId, key });
  if (!row) return { kind: 'in_progress' };
  if (row.fingerprint !== fingerprint) return { kind: 'reused' };
  if (row.documentId !== null) return { kind: 'replay', documentId: row.documentId };
  return { kind: 'in_progress' };
}

/** Gives a key back when the attempt ends before a document exists, so a corrected retry can use it. */
export async function releaseLease(db: Database, lease: Lease): Promise<void> {
  await db.delete(idempotencyKeys).where(heldBy(lease));
}
