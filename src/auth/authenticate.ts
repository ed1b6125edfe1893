import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import type { Scope } from '../contract/scopes.ts';
import { describeError } from '../db/failures.ts';
import { authFailureBucket } from '../limits/buckets.ts';
import { countRequest, type LimiterDeps } from '../limits/count.ts';
import { networkOf } from '../limits/network.ts';
import { log } from '../log.ts';
import { hashKey, isWellFormedKey } from './key-format.ts';
import { findActiveKey, type KeyWithAccount, scopesOf, touchKey } from './store.ts';

export type AuthContext = KeyWithAccount;

/** What a caller presents: the Authorization header as sent (null without one) and the address it came from. */
interface SignInAttempt {
  readonly authorization: string | null;
  /** The client's address, for the failed-sign-in limit of its network. */
  readonly clientAddress: string | undefined;
  /** For the log lines. */
  readonly requestId: string;
}

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** Every failure but a missing header gets this one answer, so nothing tells whether a key ever existed. */
function invalidKey(): ApiError {
  return new ApiError('unauthorized', { detail: 'invalid_key', message: 'The API key is not valid.' });
}

/** Section 5: `Authorization: Bearer <key>` only; the key is never read from the URL or the body. */
async function findKey(attempt: SignInAttempt, deps: LimiterDeps): Promise<AuthContext> {
  const header = attempt.authorization;
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
  const found = await findActiveKey(deps.db, hashKey(token));
  if (!found) throw invalidKey();
  try {
    await touchKey(deps.db, found.key, deps.clock.now());
  } catch (error) {
    // last_used_at is a convenience for the operator: a write that fails (a busy database) never fails the request.
    log('warn', 'last_used_at_not_written', { request_id: attempt.requestId, error: `last_used_at not written: ${describeError(error)}` });
  }
  return found;
}

/**
 * The calling key and its account, or 401. A failure is counted for the client's network, and past its limit
 * answered 429 instead of 401; a valid key never meets that limit. The failure's count stays out of the
 * RateLimit headers.
 */
export async function authenticate(attempt: SignInAttempt, deps: LimiterDeps): Promise<AuthContext> {
  try {
    return await findKey(attempt, deps);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'unauthorized') {
      await countRequest([authFailureBucket(networkOf(attempt.clientAddress))], deps, { requestId: attempt.requestId });
    }
    throw error;
  }
}

export function requireScope(auth: AuthContext, scope: Scope): void {
  if (!scopesOf(auth.key).includes(scope)) {
    throw new ApiError('forbidden_scope', { detail: 'missing_scope', message: `This key lacks the scope ${scope}.` });
  }
}
