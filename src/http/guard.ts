import { planOf } from '../accounts/plans.ts';
import { type AuthContext, authenticate, requireScope } from '../auth/authenticate.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { requestBuckets } from '../limits/buckets.ts';
import { countRequest } from '../limits/count.ts';
import { authenticateOperator } from '../operator/authenticate.ts';
import type { RequestContext } from './context.ts';
import type { RouteSpec } from './route.ts';

/**
 * Runs before a matched route's handler. On routes that take a key: authentication (whose failures are counted
 * for the client's network), then the requests bucket, then the route's scope.
 */
export async function guardRoute(route: RouteSpec, context: RequestContext): Promise<AuthContext | undefined> {
  if (route.access.kind === 'operator') return guardOperator(context);
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

/** Operator routes: the operator secret; without one configured the route does not exist. */
async function guardOperator({ deps, request, clientAddress, requestId }: RequestContext): Promise<undefined> {
  if (deps.config.operatorSecretDigest === undefined) throw new ApiError('not_found');
  await authenticateOperator(
    { authorization: request.headers.get(HEADERS.authorization), clientAddress, requestId },
    deps.config.operatorSecretDigest,
    deps,
  );
  return undefined;
}
