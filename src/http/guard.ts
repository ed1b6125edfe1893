import { planOf } from '../accounts/plans.ts';
import { type AuthContext, authenticate, requireScope } from '../auth/authenticate.ts';
import { ApiError } from '../contract/api-error.ts';
import { authFailureBucket, requestBuckets } from '../limits/buckets.ts';
import { countRequest } from '../limits/count.ts';
import { networkOf } from '../limits/network.ts';
import type { RequestContext } from './context.ts';
import type { RouteSpec } from './route.ts';

/**
 * Runs before a matched route's handler. On routes that take a key: authentication (a failure is counted for
 * the client's network, and past its limit answered 429 instead of 401; a valid key never meets that limit),
 * then the requests bucket, then the route's scope.
 */
export async function guardRoute(route: RouteSpec, context: RequestContext): Promise<AuthContext | undefined> {
  if (route.access.kind !== 'key') return undefined;
  let auth: AuthContext;
  try {
    auth = await authenticate(context);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'unauthorized') {
      await countRequest(context, [authFailureBucket(networkOf(context.clientAddress))], { report: false });
    }
    throw error;
  }
  context.trace.accountId = auth.account.id;
  context.trace.keyId = auth.key.id;
  await countRequest(context, requestBuckets(auth.key.id, planOf(auth.account.plan).limits));
  if (route.access.scope) requireScope(auth, route.access.scope);
  return auth;
}
