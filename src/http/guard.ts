import type { RequestContext } from './context.ts';
import type { RouteSpec } from './route.ts';

/** Runs before every matched route's handler. Public routes pass; key routes are checked by the auth module. */
export async function guardRoute(route: RouteSpec, _context: RequestContext): Promise<void> {
  if (route.access.kind === 'public') return;
}
