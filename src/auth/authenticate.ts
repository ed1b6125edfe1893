import { type SQL, sql } from 'drizzle-orm';
import { planOf } from '../accounts/plans.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import type { Scope } from '../contract/scopes.ts';
import { sendBatch } from '../db/batch.ts';
import { describeError } from '../db/failures.ts';
import { preparedPerDatabase, type StatementValues, statementOf } from '../db/prepared.ts';
import { authFailureBucket, requestBuckets } from '../limits/buckets.ts';
import { admissionOf, countingStatements, countRequest, type LimiterDeps, limiterDown, reportAdmission } from '../limits/count.ts';
import { type BucketInSql, bucketsInSql, type CallerInSql, windowValues } from '../limits/in-sql.ts';
import { requestAdmittedInSql } from '../limits/key-counters.ts';
import { networkOf } from '../limits/network.ts';
import type { RateLimitReport } from '../limits/report.ts';
import { log } from '../log.ts';
import { hashKey, isWellFormedKey } from './key-format.ts';
import { type SignInAnswers, SignInPart } from './sign-in-batch.ts';
import {
  type CallerFragments,
  callerInSql,
  type KeyWithAccount,
  keyByHash,
  keyWithAccount,
  LAST_USED_RESOLUTION_MS,
  scopesOf,
  touchedLastUsed,
  touchKey,
} from './store.ts';

export type AuthContext = KeyWithAccount;

/**
 * The caller of a request, for a route's statements sent with the sign-in: the key's hash and the time, bound into
 * statements built once (src/db/prepared.ts) that find the caller by the hash in SQL (callerInSql), and whether the
 * same batch counts the request in the key's requests bucket (then the route's statements run only while it is open).
 */
export interface SigningIn {
  readonly hash: string;
  readonly counting: boolean;
  /** The hash, the time (`now`) and the windows at that time (windowValues), by placeholder name. */
  readonly values: StatementValues;
}

/** The values of a caller's placeholders: its hash, the time and every window's bounds at that time. */
function callerValues(hash: string, now: number): StatementValues {
  return { hash, now, ...windowValues(now) };
}

/** The caller once signed in: the request has been counted already. */
export function signedInCaller(auth: AuthContext, now: number): SigningIn {
  return { hash: auth.key.hash, counting: false, values: callerValues(auth.key.hash, now) };
}

/** The placeholder of the key's hash in statements built once (bound from SigningIn's values). */
export const HASH = sql.placeholder('hash');
/** The placeholder of the request's time. */
export const NOW = sql.placeholder('now');

/** The key's requests bucket, named and limited in SQL from the caller. */
function requestsBucketInSql(caller: CallerInSql): BucketInSql {
  return bucketsInSql((keyId, _accountId, plan) => requestBuckets(keyId, plan), caller)[0]!;
}

/**
 * Whether a route's statement may run for the caller (SQL read after the batch's first statement counted the
 * request): the key is active and, when `counting`, the request was admitted by its requests bucket.
 */
export function admittedInSql(caller: CallerFragments, counting: boolean): SQL {
  return counting ? requestAdmittedInSql(caller.keyRow, requestsBucketInSql(caller)) : caller.active;
}

/** The sign-in's own parts of its batch, around the route's part (`route`). */
type SignInStatement = 'key' | 'route' | 'account' | 'failure';

/** A failed sign-in's bucket: its limit and window (the name is the network's, bound per request). */
const FAILURE_BUCKET = authFailureBucket('');
const LAST_USED_BEFORE = sql.placeholder('last_used_before');

/** The sign-in's own statements, built once per database: every keyed request sends them. */
const signInStatements = preparedPerDatabase((db) => {
  const caller = callerInSql(HASH);
  const failure = { ...FAILURE_BUCKET, name: sql.placeholder('failure_bucket'), limit: sql`${FAILURE_BUCKET.limit}` };
  const [key, account] = keyByHash(db, HASH);
  return {
    touch: statementOf(touchKey(db, HASH, NOW, LAST_USED_BEFORE)),
    key: statementOf(key),
    account: statementOf(account),
    countRequest: countingStatements(db, [requestsBucketInSql(caller)], {
      key: caller.keyRow,
      alsoOnKey: { lastUsedAt: touchedLastUsed(NOW, LAST_USED_BEFORE) },
    }).map(statementOf),
    countFailure: countingStatements(db, [failure], { condition: sql`NOT ${caller.active}` }).map(statementOf),
  };
});

/**
 * Statements a route sends in the sign-in's round trip, before the batch's own look-up of the key (so that they
 * may change what it reads: a renewed credit period), built from the caller (SigningIn) before the key is known.
 */
export type WithSignIn = (caller: SigningIn) => Promise<SignInPart<string, unknown> | undefined>;

/** The calling key and its account, and the answers of the route's statements (none when it sent none). */
export interface SignedIn {
  readonly auth: AuthContext;
  readonly sent: SignInAnswers<string, unknown> | undefined;
}

/** What a caller presents: the Authorization header as sent (null without one) and the address it came from. */
interface SignInAttempt {
  readonly authorization: string | null;
  /** The client's address, for the failed-sign-in limit of its network. */
  readonly clientAddress: string | undefined;
  /** For the log lines. */
  readonly requestId: string;
  /** The request's RateLimit report: the requests bucket goes into it. */
  readonly rateLimits: RateLimitReport;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** Every failure but a missing header gets this one answer, so nothing tells whether a key ever existed. */
function invalidKey(): ApiError {
  return new ApiError('unauthorized', { detail: 'invalid_key', message: 'The API key is not valid.' });
}

/** Section 5: `Authorization: Bearer <key>` only; the key is never read from the URL or the body. */
function wellFormedKey(header: string | null): string {
  // An empty header counts as none: some proxies (and workerd's) drop empty headers, and the answer must not
  // depend on the runtime.
  if (header === null || header.trim() === '') {
    throw new ApiError('unauthorized', {
      detail: 'missing_authorization',
      message: `Send the header ${HEADERS.authorization}: Bearer <API_KEY>.`,
    });
  }
  const token = BEARER.exec(header)?.[1];
  if (!token || !isWellFormedKey(token)) throw invalidKey();
  return token;
}

/**
 * With rate limits on, one batch for a well-formed key: first the active key's row by the key's hash, the request
 * counted in its requests bucket there and last_used_at (a convenience for the operator, changed at most once a
 * minute) in the same UPDATE; the route's statements, which read the admission from that row; the key's account;
 * and, where no active key has the hash, a failed sign-in counted for the client's network. The batch writes, so a
 * database that cannot take it leaves the request uncounted: 503 limiter_unavailable.
 */
async function signInCounted(hash: string, attempt: SignInAttempt, deps: LimiterDeps, withSignIn?: WithSignIn): Promise<SignedIn> {
  const { db, clock } = deps;
  const now = clock.now();
  const failure = authFailureBucket(networkOf(attempt.clientAddress));
  const caller = { hash, counting: true, values: callerValues(hash, now) };
  const values = { ...caller.values, last_used_before: now - LAST_USED_RESOLUTION_MS, failure_bucket: failure.name };
  let route: SignInPart<string, unknown> | undefined;
  let batch: SignInPart<SignInStatement, undefined>;
  let sent: unknown[];
  try {
    const statements = signInStatements(db);
    // Inside: a route's statements count in buckets too, and a limiter out of reach may fail them as they are made.
    route = await withSignIn?.(caller);
    batch = new SignInPart<SignInStatement, undefined>(undefined)
      .add(
        'key',
        statements.countRequest.map((statement) => statement.bind(values)),
      )
      .add('route', route?.statements() ?? [])
      .add('account', [statements.account.bind(values)])
      .add(
        'failure',
        statements.countFailure.map((statement) => statement.bind(values)),
      );
    sent = await sendBatch(db, batch.statements());
  } catch (error) {
    throw limiterDown(attempt.requestId, error);
  }
  // Outside: answers that do not match the statements are a fault of the service, not a limiter out of reach.
  const answers = batch.answered(sent);
  // Only an active key's row is counted and answered.
  const row = keyWithAccount([answers.of('key')[0], answers.of('account')[0]]);
  if (row) {
    reportAdmission(admissionOf(requestBuckets(row.key.id, planOf(row.account.plan).limits), now, answers.of('key')), now, attempt);
    return { auth: row, sent: route?.answered(answers.of('route')) };
  }
  // The failure's count stays out of the RateLimit headers.
  reportAdmission(admissionOf([failure], now, answers.of('failure')), now, {});
  throw invalidKey();
}

/**
 * With rate limits off, one read; last_used_at is written after it when a minute old, and a write that fails
 * (the database busy) never fails the request: reading needs no lock on an embedded file.
 */
async function signIn(hash: string, attempt: SignInAttempt, deps: LimiterDeps, withSignIn?: WithSignIn): Promise<SignedIn> {
  const { db } = deps;
  const now = deps.clock.now();
  const statements = signInStatements(db);
  const caller = { hash, counting: false, values: callerValues(hash, now) };
  const route = await withSignIn?.(caller);
  const batch = new SignInPart<SignInStatement, undefined>(undefined)
    .add('route', route?.statements() ?? [])
    .add('key', [statements.key.bind(caller.values)])
    .add('account', [statements.account.bind(caller.values)]);
  const answers = batch.answered(await sendBatch(db, batch.statements()));
  const row = keyWithAccount([answers.of('key')[0], answers.of('account')[0]]);
  if (!row || row.key.revokedAt !== null) throw invalidKey();
  const signedIn = { auth: row, sent: route?.answered(answers.of('route')) };
  if (row.key.lastUsedAt !== null && now - row.key.lastUsedAt < LAST_USED_RESOLUTION_MS) return signedIn;
  try {
    await sendBatch(db, [statements.touch.bind({ ...caller.values, last_used_before: now - LAST_USED_RESOLUTION_MS })]);
    row.key.lastUsedAt = now;
  } catch (error) {
    // last_used_at is a convenience for the operator: a write that fails (a busy database) never fails the request.
    log('warn', 'last_used_at_not_written', { request_id: attempt.requestId, error: `last_used_at not written: ${describeError(error)}` });
  }
  return signedIn;
}

/**
 * The calling key and its account, or 401, with the request counted in the key's requests bucket (429 past its
 * limit). A failure is counted for the client's network, and past its limit answered 429 instead of 401; a
 * valid key never meets that limit. The failure's count stays out of the RateLimit headers.
 */
export async function authenticate(attempt: SignInAttempt, deps: LimiterDeps, withSignIn?: WithSignIn): Promise<SignedIn> {
  let token: string;
  try {
    token = wellFormedKey(attempt.authorization);
  } catch (error) {
    await countRequest([authFailureBucket(networkOf(attempt.clientAddress))], deps, { requestId: attempt.requestId });
    throw error;
  }
  const hash = hashKey(token);
  return deps.config.rateLimitsEnabled ? signInCounted(hash, attempt, deps, withSignIn) : signIn(hash, attempt, deps, withSignIn);
}

export function requireScope(auth: AuthContext, scope: Scope): void {
  if (!scopesOf(auth.key).includes(scope)) {
    throw new ApiError('forbidden_scope', { detail: 'missing_scope', message: `This key lacks the scope ${scope}.` });
  }
}
