import { ApiError } from './contract/api-error.ts';
import { HEADERS } from './contract/headers.ts';
import { databaseUnavailable, stackFrames } from './db/failures.ts';
import { TemplateSamples } from './documents/samples.ts';
import { JsonBody } from './http/body.ts';
import type { AppDeps, RequestContext } from './http/context.ts';
import { databaseUnavailableError, logFailure } from './http/failure.ts';
import { guardRoute } from './http/guard.ts';
import { newRequestId } from './http/request-id.ts';
import { errorResponse, withAnswerHeaders } from './http/respond.ts';
import type { RouteSpec } from './http/route.ts';
import { buildRouter } from './http/router.ts';
import { RateLimitReport } from './limits/report.ts';
import { type LogLevel, log } from './log.ts';
import { notFoundPage } from './pages/home-view.ts';
import { settingsErrorPage, settingsNotFoundPage } from './pages/page-route.ts';
import { isSettingsPath, withPageSecurityHeaders } from './pages/security.ts';
import { RenderEngine } from './render/engine.ts';
import { ROUTES } from './routes/index.ts';
import { OPERATOR_PATH_PREFIX } from './routes/operator.commands.ts';

/** What the runtime knows about the connection that the Request does not carry. */
export interface Connection {
  clientAddress?: string | undefined;
  /**
   * Keeps work running after the answer is sent: the Worker's ctx.waitUntil (an isolate may stop once the answer
   * is out), or the Bun and Node servers' own, which a graceful stop waits for. Absent, the task runs by itself.
   */
  waitUntil?: ((task: Promise<unknown>) => void) | undefined;
}

export type FetchHandler = (request: Request, connection?: Connection) => Promise<Response>;

/** The one web-standard handler every runtime serves. `routes` is for tests that need a route of their own. */
export function createApp(deps: AppDeps, routes: readonly RouteSpec[] = ROUTES): FetchHandler {
  const dispatch = buildRouter(routes, guardRoute);
  const engine = new RenderEngine(deps.fonts, deps.config);
  const samples = new TemplateSamples({ engine, config: deps.config });

  return async function fetch(request: Request, connection: Connection = {}): Promise<Response> {
    const url = new URL(request.url);
    const requestId = newRequestId();
    const context: Omit<RequestContext, 'params'> = {
      request,
      url,
      requestId,
      body: new JsonBody(request),
      baseUrl: deps.config.publicBaseUrl ?? url.origin,
      deps,
      clientAddress: deps.config.trustForwardedFor ? (forwardedFor(request) ?? connection.clientAddress) : connection.clientAddress,
      rateLimits: new RateLimitReport(),
      engine,
      samples,
      trace: {},
      waitUntil: afterAnswer(requestId, connection.waitUntil),
    };
    const started = performance.now();
    let response: Response;
    try {
      const switchedOff =
        (!deps.config.apiEnabled && url.pathname.startsWith('/api/v1/')) ||
        (deps.config.operatorSecretDigest === undefined && url.pathname.startsWith(OPERATOR_PATH_PREFIX));
      const routed = !switchedOff && (await dispatch(request, context));
      response = routed || (await notFound(request, url, context));
    } catch (error) {
      const refusal = error instanceof ApiError ? error : unexpected(context.requestId, error);
      response = isSettingsPath(url.pathname) ? settingsErrorPage(refusal, context) : errorResponse(refusal, context);
    }
    for (const [name, value] of Object.entries(context.rateLimits.headers(deps.clock.now()))) response.headers.set(name, value);
    withAnswerHeaders(response, context.requestId);
    // Settings answers the router makes itself (404, 405, a failure) carry the pages' headers too; a page's own answer
    // has them already (the web app's preview with the framing it allows).
    if (isSettingsPath(url.pathname) && !response.headers.has(HEADERS.contentSecurityPolicy)) {
      withPageSecurityHeaders(response, context.baseUrl);
    }
    if (deps.config.logRequests) logRequest(context, request.method, response.status, performance.now() - started);
    return response;
  };
}

/**
 * The answer for a path no route serves: under /api/v1/ the contract's JSON 404 always; a Settings path, a Settings
 * page; any other path, a page for a browser (one that asks for HTML) and the JSON 404 for every other client.
 */
async function notFound(request: Request, url: URL, context: Omit<RequestContext, 'params'>): Promise<Response> {
  if (isSettingsPath(url.pathname)) return settingsNotFoundPage(context);
  const api = url.pathname.startsWith('/api/') || !(request.headers.get(HEADERS.accept) ?? '').includes('text/html');
  if (api) return errorResponse(new ApiError('not_found'), context);
  return notFoundPage(context.baseUrl);
}

/**
 * How a route leaves work running after its answer: handed to the runtime's waitUntil when it has one, else left
 * to run by itself. A failure becomes one log line with the request id and where it happened, never its message
 * (a mail server's reply may quote the recipient): the task logs its own failure, this only keeps a rejection
 * from going unhandled.
 */
function afterAnswer(requestId: string, waitUntil: Connection['waitUntil']): (task: Promise<unknown>) => void {
  return (task) => {
    const caught = task.catch((error: unknown) => {
      log('error', 'task_failed', { request_id: requestId, error: 'a task after the answer failed', at: stackFrames(error).slice(0, 8) });
    });
    waitUntil?.(caught);
  };
}

/** The address the trusted proxy saw: the last one it appended to X-Forwarded-For. */
function forwardedFor(request: Request): string | undefined {
  const header = request.headers.get(HEADERS.forwardedFor);
  return header?.split(',').at(-1)?.trim() || undefined;
}

/**
 * The level of a request's line: an answer the client caused (2xx to 4xx, 429 included) is the service doing its
 * work; 503 and 504 are work refused for want of capacity or of the database, which recovers by itself; any
 * other 5xx is a fault of the service.
 */
function requestLevel(status: number): LogLevel {
  if (status < 500) return 'info';
  return status === 503 || status === 504 ? 'warn' : 'error';
}

/**
 * One line per request: ids and outcome only, never a key, never document fields. `code` is the contract's
 * error code of an error answer (null on success, and on a Settings page's own refusal, which has none).
 */
function logRequest(context: Omit<RequestContext, 'params'>, method: string, status: number, durationMs: number): void {
  log(requestLevel(status), 'request', {
    request_id: context.requestId,
    method,
    route: context.trace.route ?? null,
    status,
    code: context.trace.errorCode ?? null,
    duration_ms: Math.round(durationMs * 10) / 10,
    account_id: context.trace.accountId ?? null,
    key_id: context.trace.keyId ?? null,
    ...(context.trace.renderMs === undefined ? {} : { render_ms: Math.round(context.trace.renderMs * 100) / 100 }),
  });
}

/**
 * A failure that is not an answer of the contract. The database busy or out of reach is 503 `service_busy`;
 * anything else is 500 `internal_error`. The log gets the error and where it happened, never a query's
 * parameters; the answer gets neither.
 */
function unexpected(requestId: string, error: unknown): ApiError {
  logFailure(requestId, error);
  return databaseUnavailable(error) === undefined ? new ApiError('internal_error') : databaseUnavailableError();
}
