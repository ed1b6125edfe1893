import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { accounts, signInLinks } from '../db/schema.ts';
import { hashToken, isTokenShaped } from './tokens.ts';

/** Whose account an unused, unexpired sign-in link signs in to. */
export interface LinkHolder {
  readonly accountId: string;
  readonly email: string;
}

/**
 * The account a sign-in link would sign in to, while the link can still be used (unused, unexpired); only reads,
 * so a mail scanner's visit spends nothing.
 */
export async function signInLinkHolder(db: Database, token: string, now: number): Promise<LinkHolder | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [row] = await db
    .select({ accountId: accounts.id, email: accounts.email })
    .from(signInLinks)
    .innerJoin(accounts, eq(accounts.id, signInLinks.accountId))
    .where(and(eq(signInLinks.tokenHash, hashToken(token)), isNull(signInLinks.usedAt), gt(signInLinks.expiresAt, now)));
  return row;
}

/**
 * An address as the link page names it: the first character of the mailbox, then `•••`, then the domain. Enough
 * for its holder to recognise it, too little for anyone else who opens a forwarded link to learn it.
 */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return `${[...email.slice(0, at)][0] ?? ''}•••${email.slice(at)}`;
}
