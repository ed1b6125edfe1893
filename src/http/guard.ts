import { planOf } from '../accounts/plans.ts';
import { type AuthContext, authenticate, requireScope } from '../auth/authenticate.ts';
import { HEADERS } from '../contract/headers.ts';
import { requestBuckets } from '../limits/buckets.ts';
import { countRequest } from '../limits/count.ts';
import type { RequestContext } from './context.ts';
import type { RouteSpec } from './route.ts';

/**
 * Runs before a matched route's handler. On routes that take a key: authentication (whose failures are counted
 * for the client's network), then the requests bucket, then the route's scope.
 */
export async function guardRoute(route: RouteSpec, context: RequestContext): Promise<AuthContext | undefined> {
  if (route.access.kind !== 'key') return undefined;
  const { deps, requestId, rateLimits, trace } = context;
  const auth = await authenticate(
    { authorization: context.request.headers.get(HEADERS.authorization), clientAddress: context.clientAddress, requestId },
    deps,
  );
  trace.accountId = auth.account.id;
  trace.keyId = auth.key.id;
  await countRequest(requestBuckets(auth.key.id, planOf(auth.account.plan).limits), deps, { requestId, rateLimits });
  if (route.access.scope) requireScope(auth, route.access.scope);
  return auth;
}
