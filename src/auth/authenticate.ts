import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import type { Scope } from '../contract/scopes.ts';
import { describeError } from '../db/failures.ts';
import type { RequestContext } from '../http/context.ts';
import { hashKey, isWellFormedKey } from './key-format.ts';
import { findActiveKey, type KeyWithAccount, scopesOf, touchKey } from './store.ts';

export type AuthContext = KeyWithAccount;

const BEARER = /^bearer[ \t]+(\S+)[ \t]*$/i;

/** Every failure but a missing header gets this one answer, so nothing tells whether a key ever existed. */
function invalidKey(): ApiError {
  return new ApiError('unauthorized', { detail: 'invalid_key', message: 'The API key is not valid.' });
}

/** Section 5: `Authorization: Bearer <key>` only; the key is never read from the URL or the body. */
export async function authenticate(context: RequestContext): Promise<AuthContext> {
  const header = context.request.headers.get(HEADERS.authorization);
  // An empty header counts as none: some proxies (and workerd's) drop empty headers, and the answer must not
  // depend on the runtime.
  if (header === null || header.trim() === '') {
    throw new ApiError('unauthorized', {
      detail: 'missing_authorization',
      message: 'Send the header Authorization: Bearer <API_KEY>.',
    });
  }
  const token = BEARER.exec(header)?.[1];
  if (!token || !isWellFormedKey(token)) throw invalidKey();
  const found = await findActiveKey(context.deps.db, hashKey(token));
  if (!found) throw invalidKey();
  try {
    await touchKey(context.deps.db, found.key, context.deps.clock.now());
  } catch (error) {
    // last_used_at is a convenience for the operator: a write that fails (a busy database) never fails the request.
    console.error(
      JSON.stringify({ level: 'warn', request_id: context.requestId, error: `last_used_at not written: ${describeError(error)}` }),
    );
  }
  return found;
}

export function requireScope(auth: AuthContext, scope: Scope): void {
  if (!scopesOf(auth.key).includes(scope)) {
    throw new ApiError('forbidden_scope', { detail: 'missing_scope', message: `This key lacks the scope ${scope}.` });
  }
}
