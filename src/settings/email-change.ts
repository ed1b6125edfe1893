import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { describeError } from '../db/failures.ts';
import { accounts, emailChanges, signInLinks } from '../db/schema.ts';
import { newId } from '../ids.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/mailer.ts';
import { maskedEmail } from './links.ts';
import {
  afterTheAnswer,
  countLinkMail,
  type LinkRequest,
  mailLink,
  mailQuietly,
  SIGN_IN_LINK_LIFETIME_MINUTES,
  SIGN_IN_LINK_LIFETIME_MS,
  type SignInDeps,
} from './sign-in.ts';
import { hashToken, isTokenShaped, newToken } from './tokens.ts';

export const EMAIL_CHANGE_PATH = '/settings/account/email/confirm';
export const EMAIL_CHANGE_SUBJECT = 'Confirm your new email address';
export const EMAIL_CHANGED_SUBJECT = 'Your email address was changed';
export const EMAIL_CHANGE_ASKED_SUBJECT = 'A change of your email address was asked for';

/**
 * Mails a link to the new address, after the answer, as a sign-in link is (counted against that address and the
 * client's network first). The address changes only when the link is used: whoever asks must read the new mailbox.
 * Whether another account has the new address is not told here, only on the link's page, to that mailbox's reader.
 */
export async function requestEmailChange(
  deps: SignInDeps,
  account: { readonly id: string; readonly email: string },
  request: LinkRequest,
): Promise<void> {
  await countLinkMail(deps, request);
  afterTheAnswer(deps, async () => {
    const token = newToken();
    const now = deps.clock.now();
    try {
      await deps.db.insert(emailChanges).values({
        tokenHash: hashToken(token),
        accountId: account.id,
        newEmail: request.email,
        createdAt: now,
        expiresAt: now + SIGN_IN_LINK_LIFETIME_MS,
      });
    } catch (error) {
      log('error', 'email_change_mail_not_sent', { request_id: request.requestId, error: `link not stored: ${describeError(error)}` });
      return;
    }
    const mail = {
      to: request.email,
      subject: EMAIL_CHANGE_SUBJECT,
      purpose: `to make this the email address of the account ${maskedEmail(account.email)}`,
      path: EMAIL_CHANGE_PATH,
      token,
      after: `The link works once, within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes. If you did not ask for it, ignore this email: nothing changes.`,
      failureEvent: 'email_change_mail_not_sent',
    };
    await mailLink(deps, mail, request.requestId);
    // The current address hears of it first: a change asked for from a stolen session is cancelled by signing
    // out everywhere (which voids pending changes) before its link is used.
    const text = [
      `A change of your account's email address to ${maskedEmail(request.email)} was asked for in Settings. It happens only when the link sent to that address is used, within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes.`,
      '',
      'If you did not ask for it, sign in and choose Sign out everywhere on the Overview page: that cancels the change.',
      '',
    ].join('\n');
    await mailQuietly(
      deps,
      { to: account.email, subject: EMAIL_CHANGE_ASKED_SUBJECT, text },
      { requestId: request.requestId, event: 'email_change_mail_not_sent' },
    );
  });
}

/** What an unused, unexpired address-change link would do: which account, from which address to which. */
export interface PendingEmailChange {
  readonly accountId: string;
  readonly email: string;
  readonly newEmail: string;
}

/** The change a link asks for while it can be used; only reads, so a mail scanner's visit changes nothing. */
export async function pendingEmailChange(db: Database, token: string, now: number): Promise<PendingEmailChange | undefined> {
  if (!isTokenShaped(token)) return undefined;
  const [row] = await db
    .select({ accountId: accounts.id, email: accounts.email, newEmail: emailChanges.newEmail })
    .from(emailChanges)
    .innerJoin(accounts, eq(accounts.id, emailChanges.accountId))
    .where(
      and(
        eq(emailChanges.tokenHash, hashToken(token)),
        isNull(emailChanges.usedAt),
        gt(emailChanges.expiresAt, now),
        isNull(accounts.deletedAt),
      ),
    );
  return row;
}

export type EmailChangeOutcome =
  | { readonly changed: { readonly accountId: string; readonly from: string; readonly to: string } }
  | { readonly addressTaken: string }
  | 'link_expired';

/**
 * Uses an address-change link once, in one batch: the link is marked used only if unused and unexpired (recording
 * this attempt's id); the account takes the new address, confirmed, unless another account has it in any letter
 * case (UPDATE OR IGNORE on the unique index: nothing changes, the link is spent); the account's other pending
 * changes and unused sign-in links, mailed to the old address, are voided. The old address is then told, after
 * the answer.
 */
export async function confirmEmailChange(
  deps: Pick<SignInDeps, 'db' | 'afterAnswer'> & { readonly mailer: Mailer | undefined },
  input: { token: string; now: number; requestId: string },
): Promise<EmailChangeOutcome> {
  if (!isTokenShaped(input.token)) return 'link_expired';
  const { db } = deps;
  const { now } = input;
  const linkHash = hashToken(input.token);
  const attempt = newId('attempt');
  const won = sql`SELECT account_id FROM ${emailChanges} WHERE token_hash = ${linkHash} AND consumed_by = ${attempt}`;
  const newEmail = sql`SELECT new_email FROM ${emailChanges} WHERE token_hash = ${linkHash} AND consumed_by = ${attempt}`;
  const usable = sql`token_hash = ${linkHash} AND used_at IS NULL AND expires_at > ${now}
    AND ${EXISTS} (SELECT 1 FROM ${accounts} WHERE ${accounts.id} = ${emailChanges.accountId} AND ${accounts.deletedAt} IS NULL)`;
  const [before, used, changed] = await db.batch([
    db.all<{ email: string }>(sql`SELECT ${accounts.email} AS email FROM ${accounts}
      WHERE ${accounts.id} = (SELECT account_id FROM ${emailChanges} WHERE ${usable})`),
    db
      .update(emailChanges)
      .set({ usedAt: now, consumedBy: attempt })
      .where(usable)
      .returning({ accountId: emailChanges.accountId, newEmail: emailChanges.newEmail }),
    db.all<{ email: string }>(sql`UPDATE OR IGNORE ${accounts} SET email = (${newEmail}), email_confirmed = 1
      WHERE ${accounts.id} = (${won}) RETURNING email`),
    db.update(emailChanges).set({ usedAt: now }).where(sql`account_id = (${won}) AND used_at IS NULL`),
    db
      .update(signInLinks)
      .set({ usedAt: now })
      .where(
        sql`account_id = (${won}) AND used_at IS NULL AND ${EXISTS} (SELECT 1 FROM ${accounts} WHERE ${accounts.id} = (${won}) AND email = (${newEmail}))`,
      ),
  ]);
  const [link] = used;
  const [account] = changed as { email: string }[];
  const [old] = before as { email: string }[];
  if (!link || !old) return 'link_expired';
  if (!account) return { addressTaken: link.newEmail };
  const text = [
    `The email address of your account was changed to ${account.email}. Sign-in links go there from now on.`,
    '',
    'If you did not change it, someone who could sign in to your account did: ask the operator of this service for help.',
    '',
  ].join('\n');
  const { mailer } = deps;
  if (mailer) {
    const mail = { to: old.email, subject: EMAIL_CHANGED_SUBJECT, text };
    afterTheAnswer(deps, () => mailQuietly({ mailer }, mail, { requestId: input.requestId, event: 'email_change_mail_not_sent' }));
  }
  return { changed: { accountId: link.accountId, from: old.email, to: account.email } };
}
