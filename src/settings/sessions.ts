import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AccountRow } from '../accounts/store.ts';
import type { Database } from '../db/database.ts';
import { accounts, emailChanges, sessions, signInLinks } from '../db/schema.ts';
import { hashToken, isTokenShaped } from './tokens.ts';

/**
 * A session lasts 7 days from sign-in, however much it is used (an absolute lifetime: a stolen cookie does not
 * live on by being used), and each sign-in starts a new one.
 */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export interface Session {
  /** The cookie's token: the page layer needs it for the CSRF token and to end the session. */
  readonly token: string;
  readonly account: AccountRow;
  readonly expiresAt: number;
}

/** The session of a cookie's token, with its account: one look-up by the primary key; an expired one is absent. */
export async function readSession(db: Database, token: string, now: number): Promise<Session | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [row] = await db
    .select({ account: accounts, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(accounts, eq(accounts.id, sessions.accountId))
    .where(and(eq(sessions.tokenHash, hashToken(token)), gt(sessions.expiresAt, now), isNull(accounts.deletedAt)));
  return row ? { token, account: row.account, expiresAt: row.expiresAt } : undefined;
}

export async function endSession(db: Database, token: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(token)));
}

/**
 * Ends every session of the account, this one included, and in the same batch voids its unused sign-in links and
 * its pending address changes: a link waiting in a mailbox someone else reads would otherwise start a new session
 * right after, or move the account to that mailbox.
 */
export async function endAllSessions(db: Database, accountId: string, now: number): Promise<number> {
  const [ended] = await db.batch([
    db.delete(sessions).where(eq(sessions.accountId, accountId)).returning({ tokenHash: sessions.tokenHash }),
    db
      .update(signInLinks)
      .set({ usedAt: now })
      .where(and(eq(signInLinks.accountId, accountId), isNull(signInLinks.usedAt))),
    db
      .update(emailChanges)
      .set({ usedAt: now })
      .where(and(eq(emailChanges.accountId, accountId), isNull(emailChanges.usedAt))),
  ]);
  return ended.length;
}

const CSRF_PURPOSE = 'svc settings form';

/**
 * The token every form of a signed-in page carries: an HMAC keyed by the session's secret, so it needs no
 * storage, differs per session, and cannot be made without the cookie.
 */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update(CSRF_PURPOSE).digest('hex');
}

/** Compared in constant time, so the answer's timing tells nothing of how much of a guess was right. */
export function isCsrfTokenValid(sessionToken: string, presented: string): boolean {
  const expected = new TextEncoder().encode(csrfTokenFor(sessionToken));
  const given = new TextEncoder().encode(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
