import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { signInLinks } from '../db/schema.ts';
import { hashToken, isTokenShaped } from './tokens.ts';

/** Whether a sign-in link can still be used (unused, unexpired); only reads, so a mail scanner's visit spends nothing. */
export async function isSignInLinkUsable(db: Database, token: string, now: number): Promise<boolean> {
  if (!isTokenShaped(token)) return false;
  const [row] = await db
    .select({ tokenHash: signInLinks.tokenHash })
    .from(signInLinks)
    .where(and(eq(signInLinks.tokenHash, hashToken(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)));
  return row !== undefined;
}
