import { authenticate, requireScope, type AuthContext } from '../auth/authenticate.ts';
import type { RequestContext } from './context.ts';
import type { RouteSpec } from './route.ts';

/** Runs before a matched route's handler: routes that take a key get the key checked and its scope. */
export async function guardRoute(route: RouteSpec, context: RequestContext): Promise<AuthContext | undefined> {
  if (route.access.kind !== 'key') return undefined;
  const auth = await authenticate(context);
  if (route.access.scope) requireScope(auth, route.access.scope);
  return auth;
}
