import type { AuthContext } from '../auth/authenticate.ts';
import type { SignInAnswers } from '../auth/sign-in-batch.ts';
import type { Clock } from '../clock.ts';
import type { AppConfig } from '../config.ts';
import type { ErrorCode } from '../contract/errors.ts';
import type { Database } from '../db/database.ts';
import type { TemplateSamples } from '../documents/samples.ts';
import type { RateLimitReport } from '../limits/report.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RenderEngine } from '../render/engine.ts';
import type { FontSet } from '../render/fonts.ts';
import type { JsonBody } from './body.ts';

/** What the service is built from: made once by the runtime, shared by every request. */
export interface AppDeps {
  readonly db: Database;
  readonly clock: Clock;
  readonly config: AppConfig;
  /** Parsed once per process (or isolate) and shared by every render. */
  readonly fonts: FontSet;
  /** Absent when no mail transport is configured: Settings cannot send sign-in links then. */
  readonly mailer?: Mailer;
  /** The address a Bun or Node server was started on, for sign-in links without PUBLIC_BASE_URL (src/settings/sign-in.ts). */
  readonly listenOrigin?: string;
}

export interface RequestTrace {
  route?: string;
  accountId?: string;
  keyId?: string;
  renderMs?: number;
  /** The contract's code of the error the request was answered with. */
  errorCode?: ErrorCode;
}

/** Everything a route handler sees for one request. */
export interface RequestContext {
  readonly request: Request;
  readonly url: URL;
  readonly requestId: string;
  /** `{base_url}` of the contract: PUBLIC_BASE_URL, else the request's origin. */
  readonly baseUrl: string;
  readonly deps: AppDeps;
  readonly params: Readonly<Record<string, string>>;
  /** The calling key and its account, on routes that take a key. */
  readonly auth?: AuthContext;
  /** The answers of the route's withSignIn statements, sent in the sign-in's round trip (RouteSpec). */
  readonly signedIn?: SignInAnswers<string, unknown>;
  /** The request's JSON body, read once for whoever asks. */
  readonly body: JsonBody;
  /** The client's address as the runtime saw it (or X-Forwarded-For behind a trusted proxy). */
  readonly clientAddress: string | undefined;
  /** Buckets this request was counted in; the RateLimit headers are made from it. */
  readonly rateLimits: RateLimitReport;
  readonly engine: RenderEngine;
  /** The templates' examples rendered once per process or isolate, for the front door. */
  readonly samples: TemplateSamples;
  /** What the request log line says about the request, filled in as it is learnt. */
  readonly trace: RequestTrace;
  /** Runs a task after the answer, which does not wait for it (src/app.ts afterAnswer). */
  readonly waitUntil: (task: Promise<unknown>) => void;
}

/** What the guard learnt before the handler runs: on routes that take a key, the caller and the sign-in's read. */
export type Guarded = Pick<RequestContext, 'auth' | 'signedIn'>;

/** The context of a route that takes a key, after the guard has authenticated it. */
type KeyedContext = RequestContext & { readonly auth: AuthContext };

export function keyed(context: RequestContext): KeyedContext {
  if (!context.auth) throw new Error('route that takes a key was reached without authentication');
  return context as KeyedContext;
}
