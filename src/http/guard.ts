import { authenticate, requireScope } from '../auth/authenticate.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { authenticateOperator } from '../operator/authenticate.ts';
import type { Guarded, RequestContext } from './context.ts';
import type { RouteSpec } from './route.ts';

/**
 * Runs before a matched route's handler. On routes that take a key: authentication with the requests bucket
 * (failures counted for the client's network instead), then the route's scope.
 */
export async function guardRoute(route: RouteSpec, context: RequestContext): Promise<Guarded> {
  if (route.access.kind === 'operator') return guardOperator(context);
  if (route.access.kind !== 'key') return {};
  const { deps, requestId, rateLimits, trace } = context;
  const { auth, sent } = await authenticate(
    { authorization: context.request.headers.get(HEADERS.authorization), clientAddress: context.clientAddress, requestId, rateLimits },
    deps,
    route.withSignIn && ((caller) => route.withSignIn!(context, caller)),
  );
  trace.accountId = auth.account.id;
  trace.keyId = auth.key.id;
  if (route.access.scope) requireScope(auth, route.access.scope);
  return sent ? { auth, signedIn: sent } : { auth };
}

/** Operator routes: the operator secret; without one configured the route does not exist. */
async function guardOperator({ deps, request, clientAddress, requestId }: RequestContext): Promise<Guarded> {
  if (deps.config.operatorSecretDigest === undefined) throw new ApiError('not_found');
  await authenticateOperator(
    { authorization: request.headers.get(HEADERS.authorization), clientAddress, requestId },
    deps.config.operatorSecretDigest,
    deps,
  );
  return {};
}
