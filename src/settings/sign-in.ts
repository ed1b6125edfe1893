import { sql } from 'drizzle-orm';
import { createAccount, findAccountByEmail } from '../accounts/store.ts';
import type { Clock } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { EXISTS } from '../db/exists.ts';
import { describeError } from '../db/failures.ts';
import { accounts, sessions, signInLinks } from '../db/schema.ts';
import { sha256Hex } from '../hash.ts';
import { newId } from '../ids.ts';
import { signInMailBuckets } from '../limits/buckets.ts';
import { countRequest } from '../limits/count.ts';
import { networkOf } from '../limits/network.ts';
import { log } from '../log.ts';
import type { Mailer } from '../mail/mailer.ts';
import { SESSION_LIFETIME_MS } from './sessions.ts';
import { hashToken, isTokenShaped, newToken } from './tokens.ts';

export const SIGN_IN_LINK_LIFETIME_MINUTES = 15;
export const SIGN_IN_LINK_LIFETIME_MS = SIGN_IN_LINK_LIFETIME_MINUTES * 60_000;
export const SIGN_IN_LINK_PATH = '/settings/sign-in/link';
export const SIGN_IN_MAIL_SUBJECT = 'Your sign-in link';

export interface SignInDeps {
  readonly db: Database;
  readonly clock: Clock;
  /** PUBLIC_BASE_URL is where mailed links point; start-up refuses SMTP without it (src/mail/config.ts). */
  readonly config: Pick<AppConfig, 'rateLimitsEnabled' | 'publicBaseUrl'>;
  /**
   * The address the server was started on (Bun and Node: its host and port), where links point without
   * PUBLIC_BASE_URL, which start-up allows only for the console transport. Never the request's Host, which its
   * client chooses. Absent too (a Worker without PUBLIC_BASE_URL), the mail gives the link's path alone.
   */
  readonly listenOrigin?: string | undefined;
  readonly mailer: Mailer;
  /**
   * Runs the sending after the answer, which never waits for it: the time a mail takes (or its failure) would
   * otherwise tell whether an account has the address.
   */
  readonly afterAnswer: (task: Promise<unknown>) => void;
}

/** Who asks for a link: the address typed, and the client for the per-network limit. */
export interface LinkRequest {
  readonly email: string;
  readonly clientAddress: string | undefined;
  readonly requestId: string;
}

/** Counts the mail against the address (by the hash of its lower-cased form) and the client's network. */
export async function countLinkMail(deps: SignInDeps, request: LinkRequest): Promise<void> {
  const buckets = signInMailBuckets(sha256Hex(request.email.toLowerCase()), networkOf(request.clientAddress));
  await countRequest(buckets, deps, { requestId: request.requestId });
}

/** A mail whose link carries a one-time token: what it says around the link, and the link's page. */
export interface LinkMail {
  readonly to: string;
  readonly subject: string;
  /** Before the link: what following it does. */
  readonly purpose: string;
  readonly path: string;
  readonly token: string;
  /** After the link: how long it works and what to do if it was not asked for. */
  readonly after: string;
  /** The log line's event when the mail fails, such as `sign_in_mail_not_sent`. */
  readonly failureEvent: string;
}

/**
 * Mails a link; never rejects: a failure is a log line naming neither the link's token nor the address. Links
 * point at PUBLIC_BASE_URL, else the address the server was started on, else the mail gives the path alone.
 */
export async function mailLink(deps: SignInDeps, mail: LinkMail, requestId: string): Promise<void> {
  const base = deps.config.publicBaseUrl ?? deps.listenOrigin;
  const text = [
    base === undefined ? `Open this address on the service you asked from, ${mail.purpose}:` : `Follow this link ${mail.purpose}:`,
    '',
    `${base ?? ''}${mail.path}?token=${mail.token}`,
    '',
    mail.after,
    '',
  ].join('\n');
  await mailQuietly(deps, { to: mail.to, subject: mail.subject, text }, { requestId, event: mail.failureEvent, secret: mail.token });
}

/**
 * Sends a mail; never rejects: a failure is the log line `event`, naming neither the address (SMTP replies often
 * quote it) nor the link's `secret`.
 */
export async function mailQuietly(
  deps: Pick<SignInDeps, 'mailer'>,
  mail: { to: string; subject: string; text: string },
  failure: { requestId: string; event: string; secret?: string },
): Promise<void> {
  try {
    await deps.mailer.send(mail);
  } catch (error) {
    const redacted = describeError(error).replace(new RegExp(mail.to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), '<recipient>');
    const described = failure.secret === undefined ? redacted : redacted.split(failure.secret).join('<token>');
    log('error', failure.event, { request_id: failure.requestId, error: `${mail.subject}: mail not sent: ${described}` });
  }
}

/** Stores a new sign-in link and mails it; never rejects (mailLink). */
async function sendLink(deps: SignInDeps, accountId: string, request: LinkRequest, to: string): Promise<void> {
  const token = newToken();
  const now = deps.clock.now();
  try {
    await deps.db
      .insert(signInLinks)
      .values({ tokenHash: hashToken(token), accountId, createdAt: now, expiresAt: now + SIGN_IN_LINK_LIFETIME_MS });
  } catch (error) {
    log('error', 'sign_in_mail_not_sent', {
      request_id: request.requestId,
      error: `${SIGN_IN_MAIL_SUBJECT}: link not stored: ${describeError(error)}`,
    });
    return;
  }
  const after = `The link works once, within ${SIGN_IN_LINK_LIFETIME_MINUTES} minutes. If you did not ask for it, ignore this email.`;
  const mail = { to, subject: SIGN_IN_MAIL_SUBJECT, purpose: 'to sign in to Settings', path: SIGN_IN_LINK_PATH, token, after };
  await mailLink(deps, { ...mail, failureEvent: 'sign_in_mail_not_sent' }, request.requestId);
}

/**
 * Runs `work` once the answer is out: after a turn of the event loop, so that not even its first synchronous part
 * (a token made, a statement begun) runs before the answer (issue 36: a known address answered 1.4 ms later).
 */
export function afterTheAnswer(deps: Pick<SignInDeps, 'afterAnswer'>, work: () => Promise<void>): void {
  deps.afterAnswer(new Promise<void>((resolve) => setTimeout(resolve, 0)).then(work));
}

/**
 * Emails a sign-in link, after the answer, when an account has the address. Before the answer, only the mail is
 * counted, the same for every address: whether an account has it is looked up after, so the page and its timing
 * tell nothing of who has an account. Throws the rate limit's refusal past it.
 */
export async function requestSignInLink(deps: SignInDeps, request: LinkRequest): Promise<void> {
  await countLinkMail(deps, request);
  afterTheAnswer(deps, async () => {
    const account = await findAccountByEmail(deps.db, request.email);
    if (account) await sendLink(deps, account.id, request, account.email);
  });
}

/**
 * Creates a free account for a new address, then emails a sign-in link whether the account is new or not; all of
 * it after the answer, as requestSignInLink, so that a taken address answers as a new one does.
 */
export async function signUp(deps: SignInDeps, request: LinkRequest): Promise<void> {
  await countLinkMail(deps, request);
  afterTheAnswer(deps, async () => {
    const created = await createAccount(deps.db, { email: request.email, plan: 'free', emailConfirmed: false, now: deps.clock.now() });
    const account = created ?? (await findAccountByEmail(deps.db, request.email));
    if (account) await sendLink(deps, account.id, request, account.email);
  });
}

/**
 * Uses a sign-in link once, in one batch: the first statement marks it used only if unused and unexpired,
 * recording this attempt's random id; the others act only where the link carries that id, so of two uses at
 * once exactly one confirms the email and starts a session. The account's other unused links are voided, and
 * the session the browser had (if any) ends: each sign-in gets a new session token.
 * Returns the new session's token, or undefined for an unknown, used or expired link.
 */
export async function useSignInLink(
  db: Database,
  input: { token: string; now: number; previousSessionToken?: string | undefined },
): Promise<{ sessionToken: string; accountId: string } | undefined> {
  if (!isTokenShaped(input.token)) return undefined;
  const { now } = input;
  const linkHash = hashToken(input.token);
  const attempt = newId('attempt');
  const sessionToken = newToken();
  const won = sql`SELECT account_id FROM ${signInLinks} WHERE token_hash = ${linkHash} AND consumed_by = ${attempt}`;
  const previousHash = input.previousSessionToken ? hashToken(input.previousSessionToken) : '';
  const [used] = await db.batch([
    db
      .update(signInLinks)
      .set({ usedAt: now, consumedBy: attempt })
      .where(
        sql`token_hash = ${linkHash} AND used_at IS NULL AND expires_at > ${now}
          AND ${EXISTS} (SELECT 1 FROM ${accounts} WHERE ${accounts.id} = ${signInLinks.accountId} AND ${accounts.deletedAt} IS NULL)`,
      )
      .returning({ accountId: signInLinks.accountId }),
    db.update(accounts).set({ emailConfirmed: true }).where(sql`${accounts.id} = (${won})`),
    db.all(sql`
      INSERT INTO ${sessions} (token_hash, account_id, created_at, expires_at)
      SELECT ${hashToken(sessionToken)}, account_id, ${now}, ${now + SESSION_LIFETIME_MS}
      FROM ${signInLinks} WHERE token_hash = ${linkHash} AND consumed_by = ${attempt}`),
    db.update(signInLinks).set({ usedAt: now }).where(sql`account_id = (${won}) AND used_at IS NULL`),
    db.delete(sessions).where(sql`token_hash = ${previousHash} AND ${EXISTS} (${won})`),
  ]);
  const [row] = used;
  return row ? { sessionToken, accountId: row.accountId } : undefined;
}
