import { HEADERS, TOTALS_HEADERS } from '../contract/headers.ts';
import { type ApiVersion, NEWEST_API_VERSION } from '../contract/version.ts';
import { SvcApiError, SvcNetworkError } from './errors.ts';
import { DEFAULT_RETRY, type RetryOptions, retryWait } from './retry.ts';
import type {
  Account,
  ApiPath,
  Document,
  DocumentJson,
  DocumentList,
  DocumentRequest,
  ListDocumentsQuery,
  OpenApiDocument,
  Template,
  Totals,
  ValidateAnswer,
} from './types.ts';

export { SvcApiError, SvcNetworkError } from './errors.ts';
export type { RetryOptions } from './retry.ts';
export type * from './types.ts';

/**
 * A typed client of the API, one method per operation of the OpenAPI document (named by its operationId). It uses
 * fetch and Web APIs only, so it runs in Node 20+, Bun, Deno, Cloudflare Workers and browsers; in a browser, call
 * your own back end, which holds the key: an API key must never reach a web page.
 */
export interface ClientOptions {
  /** Where the API is, such as `https://api.example.com`; paths begin with /api/v1. */
  baseUrl: string;
  /** A live key from Settings; the public routes (templates, openapi) need none. */
  apiKey?: string;
  /** The fetch to send requests with; the global one by default. */
  fetch?: (request: Request) => Promise<Response>;
  /** Sent as Svc-Version on every request; the version this client was built for by default. */
  version?: ApiVersion;
  /** How failed requests are retried (see retryWait); false sends each request once. */
  retry?: RetryOptions | false;
  /** How the client waits before a retry; a timer by default (tests pass one that records the wait). */
  sleep?: (ms: number) => Promise<void>;
}

export interface CreateOptions {
  /**
   * Idempotency-Key (spec 4.2): the same key and request within 24 hours gives the same document again, free. With
   * one, the client may retry a final safely; without one, it never retries a final whose charge may have happened.
   */
  idempotencyKey?: string;
}

/** A document made by POST /api/v1/documents, in the binary form: the PDF and what its Svc-* headers state. */
export interface CreatedDocument {
  pdf: Uint8Array<ArrayBuffer>;
  documentId: string;
  sha256: string;
  template: string;
  templateVersion: string;
  mode: Document['mode'];
  creditUsed: boolean;
  creditsRemaining: number;
  /** true when the Idempotency-Key had made this document before: same id and bytes, no credit. */
  replay: boolean;
  reference: string | null;
  totals: Totals;
  /** Path of the document's record (GET it with getDocument). */
  location: string;
  filename: string;
  requestId: string;
}

/** A fresh Idempotency-Key: a random UUID. Keep it with the order it belongs to, to send again on a retry. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** A name for each path the client calls, checked against the paths of the OpenAPI document. */
const PATHS = {
  templates: '/api/v1/templates',
  template: '/api/v1/templates/{slug}',
  openapi: '/api/v1/openapi.json',
  documents: '/api/v1/documents',
  validate: '/api/v1/documents/validate',
  document: '/api/v1/documents/{id}',
  documentFile: '/api/v1/documents/{id}/file',
  account: '/api/v1/account',
} as const satisfies Record<string, ApiPath>;

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  accept?: string;
  idempotencyKey?: string | undefined;
  /** See FailedAttempt.repeatable. */
  repeatable: boolean;
}

const withParameter = (path: ApiPath, value: string) => path.replace(/\{\w+\}/, encodeURIComponent(value));

/** The file name of a Content-Disposition: the UTF-8 `filename*` when sent (RFC 6266), else `filename`. */
export function filenameOf(disposition: string | null): string | null {
  if (disposition === null) return null;
  const extended = /filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  if (extended !== undefined) {
    try {
      return decodeURIComponent(extended);
    } catch {
      // A malformed percent-encoding: the plain name below still names the file.
    }
  }
  const quoted = /filename\s*=\s*"((?:[^"\\]|\\.)*)"/i.exec(disposition)?.[1];
  return quoted?.replace(/\\(.)/g, '$1') ?? /filename\s*=\s*([^;\s]+)/i.exec(disposition)?.[1] ?? null;
}

/** What the headers of a 201 in the binary form state (spec 4.2). */
function createdDocument(pdf: Uint8Array<ArrayBuffer>, headers: Headers): CreatedDocument {
  const header = (name: string) => headers.get(name);
  const totals: Record<string, string> = {};
  for (const [member, name] of Object.entries(TOTALS_HEADERS)) {
    const value = header(name);
    if (value !== null) totals[member] = value;
  }
  return {
    pdf,
    documentId: header(HEADERS.documentId) ?? '',
    sha256: header(HEADERS.documentSha256) ?? '',
    template: header(HEADERS.template) ?? '',
    templateVersion: header(HEADERS.templateVersion) ?? '',
    mode: header(HEADERS.mode) as Document['mode'],
    creditUsed: header(HEADERS.creditUsed) === 'true',
    creditsRemaining: Number(header(HEADERS.creditsRemaining)),
    replay: header(HEADERS.idempotentReplay) === 'true',
    reference: header(HEADERS.reference),
    totals: totals as Totals,
    location: header(HEADERS.location) ?? '',
    filename: filenameOf(header(HEADERS.contentDisposition)) ?? '',
    requestId: header(HEADERS.requestId) ?? '',
  };
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class SvcClient {
  readonly #baseUrl: string;
  readonly #options: ClientOptions;
  readonly #retry: Required<RetryOptions>;

  constructor(options: ClientOptions) {
    this.#baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.#options = options;
    // Member by member, so that an option passed as undefined keeps its default.
    const retry = options.retry === false ? { maxAttempts: 1 } : (options.retry ?? {});
    this.#retry = {
      maxAttempts: retry.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
      maxWaitSeconds: retry.maxWaitSeconds ?? DEFAULT_RETRY.maxWaitSeconds,
      baseWaitSeconds: retry.baseWaitSeconds ?? DEFAULT_RETRY.baseWaitSeconds,
    };
  }

  /** GET /api/v1/templates: every template with its fields schema, rules and an example request. */
  listTemplates(): Promise<Template[]> {
    return this.#json({ method: 'GET', path: PATHS.templates, repeatable: true });
  }

  /** GET /api/v1/templates/{slug}. */
  getTemplate(slug: string): Promise<Template> {
    return this.#json({ method: 'GET', path: withParameter(PATHS.template, slug), repeatable: true });
  }

  /** GET /api/v1/openapi.json: the OpenAPI 3.1 description the client's types are generated from. */
  getOpenApi(): Promise<OpenApiDocument> {
    return this.#json({ method: 'GET', path: PATHS.openapi, repeatable: true });
  }

  /**
   * POST /api/v1/documents: the PDF as bytes with what its headers state; with `as: 'json'`, the JSON form
   * (the PDF in base64, at most 3,000,000 bytes). A final costs a credit; a replay of the same Idempotency-Key does not.
   */
  createDocument(body: DocumentRequest, options?: CreateOptions & { as?: 'pdf' }): Promise<CreatedDocument>;
  createDocument(body: DocumentRequest, options: CreateOptions & { as: 'json' }): Promise<DocumentJson>;
  async createDocument(
    body: DocumentRequest,
    options: CreateOptions & { as?: 'pdf' | 'json' } = {},
  ): Promise<CreatedDocument | DocumentJson> {
    const call = {
      method: 'POST',
      path: PATHS.documents,
      body,
      idempotencyKey: options.idempotencyKey,
      repeatable: options.idempotencyKey !== undefined,
    } as const;
    if (options.as === 'json') return this.#json({ ...call, accept: 'application/json' });
    return this.#send({ ...call, accept: 'application/pdf' }, createdDocument);
  }

  /** POST /api/v1/documents/validate: the checks of createDocument without rendering or charging. */
  validateDocument(body: DocumentRequest): Promise<ValidateAnswer> {
    return this.#json({ method: 'POST', path: PATHS.validate, body, repeatable: true });
  }

  /** GET /api/v1/documents: the records of the last 90 days, newest first; pass the last id as `starting_after`. */
  listDocuments(query: ListDocumentsQuery = {}): Promise<DocumentList> {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query)) if (value !== undefined) search.set(name, String(value));
    const path = search.toString() ? `${PATHS.documents}?${search}` : PATHS.documents;
    return this.#json({ method: 'GET', path, repeatable: true });
  }

  /** GET /api/v1/documents/{id}: one record (never the fields or the PDF). */
  getDocument(id: string): Promise<Document> {
    return this.#json({ method: 'GET', path: withParameter(PATHS.document, id), repeatable: true });
  }

  /**
   * GET /api/v1/documents/{id}/file. Files are not stored in this API version: it always throws SvcApiError
   * `file_not_available`; send the createDocument request again with its Idempotency-Key to get the PDF again.
   */
  getDocumentFile(id: string): Promise<Uint8Array<ArrayBuffer>> {
    return this.#send({ method: 'GET', path: withParameter(PATHS.documentFile, id), repeatable: true }, (bytes) => bytes);
  }

  /** GET /api/v1/account: plan, credits, the calling key and its limits. */
  getAccount(): Promise<Account> {
    return this.#json({ method: 'GET', path: PATHS.account, repeatable: true });
  }

  #json<T>(call: Call): Promise<T> {
    return this.#send(call, (bytes) => JSON.parse(new TextDecoder().decode(bytes)) as T);
  }

  #request(call: Call): Request {
    const headers = new Headers({
      [HEADERS.version]: this.#options.version ?? NEWEST_API_VERSION,
      [HEADERS.accept]: call.accept ?? 'application/json',
    });
    if (this.#options.apiKey !== undefined) headers.set(HEADERS.authorization, `Bearer ${this.#options.apiKey}`);
    if (call.idempotencyKey !== undefined) headers.set(HEADERS.idempotencyKey, call.idempotencyKey);
    if (call.body !== undefined) headers.set(HEADERS.contentType, 'application/json');
    return new Request(`${this.#baseUrl}${call.path}`, {
      method: call.method,
      headers,
      ...(call.body === undefined ? {} : { body: JSON.stringify(call.body) }),
    });
  }

  /**
   * Sends the call and retries a failure as retryWait allows, the same Idempotency-Key each time. A connection that
   * breaks while the answer is read counts as a network failure; `read` turns the complete 2xx answer into the result.
   */
  async #send<T>(call: Call, read: (bytes: Uint8Array<ArrayBuffer>, headers: Headers) => T): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.#attempt(call);
      if (!(outcome instanceof Error)) return read(outcome.bytes, outcome.headers);
      const ms = retryWait(this.#retry, { failure: outcome, attempt, repeatable: call.repeatable });
      if (ms === null) throw outcome;
      await (this.#options.sleep ?? wait)(ms);
    }
  }

  async #attempt(call: Call): Promise<{ bytes: Uint8Array<ArrayBuffer>; headers: Headers } | SvcApiError | SvcNetworkError> {
    const send = this.#options.fetch ?? ((request: Request) => globalThis.fetch(request));
    try {
      const response = await send(this.#request(call));
      if (!response.ok) return await SvcApiError.of(response);
      return { bytes: new Uint8Array(await response.arrayBuffer()), headers: response.headers };
    } catch (error) {
      return new SvcNetworkError(error);
    }
  }
}

/** The client of one API base address and key. */
export function createClient(options: ClientOptions): SvcClient {
  return new SvcClient(options);
}
