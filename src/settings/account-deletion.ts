import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { accounts, apiKeys, emailChanges, sessions, signInLinks } from '../db/schema.ts';

/** What a deleted account's address becomes: no address at all, unique, and refused by every address check. */
export function deletedAddressOf(accountId: string): string {
  return `deleted:${accountId}`;
}

/**
 * Deletes an account in one batch: its address replaced by none, its unused credits set to 0, every key revoked,
 * every session ended, every sign-in and address-change link deleted. The row stays, without the address, for the
 * document records that name it: they are kept until their 90 days end, as every record is (spec 9.8), read by
 * no one, since no key or session of the account is left. Returns whether this call deleted it.
 */
export async function deleteAccount(db: Database, accountId: string, now: number): Promise<boolean> {
  const [deleted] = await db.batch([
    db
      .update(accounts)
      .set({ email: deletedAddressOf(accountId), emailConfirmed: false, creditsRemaining: 0, deletedAt: now })
      .where(and(eq(accounts.id, accountId), isNull(accounts.deletedAt)))
      .returning({ id: accounts.id }),
    db.update(apiKeys).set({ revokedAt: now }).where(sql`${apiKeys.accountId} = ${accountId} AND ${apiKeys.revokedAt} IS NULL`),
    db.delete(sessions).where(eq(sessions.accountId, accountId)),
    db.delete(signInLinks).where(eq(signInLinks.accountId, accountId)),
    db.delete(emailChanges).where(eq(emailChanges.accountId, accountId)),
  ]);
  return deleted.length === 1;
}
