import type { AppDeps } from '../app.ts';

/** Everything a route handler sees for one request. */
export interface RequestContext {
  readonly request: Request;
  readonly url: URL;
  readonly requestId: string;
  /** `{base_url}` of the contract: PUBLIC_BASE_URL, else the request's origin. */
  readonly baseUrl: string;
  readonly deps: AppDeps;
  readonly params: Readonly<Record<string, string>>;
}
