import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/database.ts';
import { statementOf } from '../../src/db/prepared.ts';
import { attemptValues, leaseDecisionOf, leaseInBatch } from '../../src/idempotency/lease.ts';
import { newId } from '../../src/ids.ts';

/**
 * An attempt taking an Idempotency-Key by itself, as the service does in the sign-in's batch (leaseInBatch), for
 * tests that need a key held by a running attempt.
 */
export async function acquireLease(db: Database, input: { accountId: string; key: string; fingerprint: string; now: number }) {
  const attempt = { ...input, leaseId: newId('lease') };
  const values = attemptValues(attempt);
  const statements = leaseInBatch(db, sql`${input.accountId}`, sql`1 = 1`).map((statement) => statementOf(statement).bind(values));
  const answers = await db.batch(statements as unknown as Parameters<Database['batch']>[0]);
  return leaseDecisionOf(attempt, answers);
}
