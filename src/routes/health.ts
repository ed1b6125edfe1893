import { sql } from 'drizzle-orm';
import { HEADERS } from '../contract/headers.ts';
import type { RequestContext } from '../http/context.ts';
import { databaseUnavailableError, logFailure } from '../http/failure.ts';
import { errorResponse, json } from '../http/respond.ts';
import { defineRoute, type RouteSpec } from '../http/route.ts';

/** Where load balancers check an instance; outside /api/v1, so neither API_ENABLED nor a version applies. */
const HEALTH_PATH = '/health';

/**
 * 200 `{"status":"ok"}` when the database answers one trivial read; otherwise 503 `service_busy` with
 * Retry-After and `"status":"unavailable"`, whatever the database's error was (a probe must not see a 500 for a
 * database it cannot reach): the error itself goes to the log, never into the answer. Never cached: an
 * answer is about this instant. HEAD gets the same status and headers without a body.
 */
async function checkHealth(context: RequestContext): Promise<Response> {
  let response: Response;
  try {
    // The schema's first row rather than `select 1`, which an embedded connection answers without reading its file.
    await context.deps.db.run(sql`select 1 from sqlite_master limit 1`);
    response = json({ status: 'ok' }, 200, { [HEADERS.cacheControl]: 'no-store' });
  } catch (error) {
    logFailure(context.requestId, error);
    response = errorResponse(databaseUnavailableError({ status: 'unavailable' }), context);
  }
  return context.request.method === 'HEAD' ? new Response(null, { status: response.status, headers: response.headers }) : response;
}

function healthRoute(method: 'GET' | 'HEAD'): RouteSpec {
  return defineRoute({
    method,
    path: HEALTH_PATH,
    access: { kind: 'probe' },
    versioned: false,
    doc: {
      operationId: method === 'GET' ? 'getHealth' : 'headHealth',
      summary: 'Health check',
      description: 'For load balancers: 200 when this instance and its database answer, else 503. Not in the OpenAPI document.',
      tag: 'Meta',
      responses: { 200: { description: '{"status":"ok"}' } },
    },
    outcomes: ['service_busy'],
    handle: checkHealth,
  });
}

export const getHealthRoute = healthRoute('GET');
export const headHealthRoute = healthRoute('HEAD');
