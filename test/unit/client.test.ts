import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from '../../src/client/errors.ts';
import { createClient, type DocumentRequest, filenameOf, newIdempotencyKey, SvcApiError, SvcNetworkError } from '../../src/client/index.ts';
import { ApiError } from '../../src/contract/api-error.ts';
import { ERRORS, type ErrorCode } from '../../src/contract/errors.ts';
import { HEADERS, TOTALS_HEADERS } from '../../src/contract/headers.ts';
import { LIMITS } from '../../src/contract/limits.ts';
import { NEWEST_API_VERSION } from '../../src/contract/version.ts';
import { errorResponse, withAnswerHeaders } from '../../src/http/respond.ts';
import { readIdempotencyKey } from '../../src/idempotency/key.ts';
import { INVOICE_FIELDS } from '../support/requests.ts';

/**
 * The client against a fetch that plays the contract's answers in turn, made by the service's own error responder:
 * what it sends, what it reads, and which failures it sends again (spec 3, 4.2, 7, 8).
 */
const BASE = 'https://svc.example';
const FINAL = { template: 'invoice', mode: 'final', fields: { ...INVOICE_FIELDS, currency: 'EUR' } } satisfies DocumentRequest;

type Answer = Response | Error;

function contractError(code: ErrorCode, options: ConstructorParameters<typeof ApiError>[1] = {}): Response {
  return withAnswerHeaders(errorResponse(new ApiError(code, options), { requestId: 'req_1', baseUrl: BASE }), 'req_1');
}

const waitFor = (code: ErrorCode, seconds: number) => contractError(code, { headers: { [HEADERS.retryAfter]: String(seconds) } });

function pdfAnswer(extra: Record<string, string> = {}): Response {
  return new Response(new Uint8Array([0x25, 0x50, 0x44, 0x46]), {
    status: 201,
    headers: {
      [HEADERS.contentType]: 'application/pdf',
      [HEADERS.location]: '/api/v1/documents/doc_1',
      [HEADERS.contentDisposition]: 'attachment; filename="invoice-INV-1.pdf"',
      [HEADERS.documentId]: 'doc_1',
      [HEADERS.documentSha256]: 'ab'.repeat(32),
      [HEADERS.template]: 'invoice',
      [HEADERS.templateVersion]: '2.0.0',
      [HEADERS.mode]: 'final',
      [HEADERS.creditUsed]: 'true',
      [HEADERS.creditsRemaining]: '4',
      [HEADERS.idempotentReplay]: 'false',
      [TOTALS_HEADERS.currency]: 'EUR',
      [TOTALS_HEADERS.subtotal]: '100.00',
      [TOTALS_HEADERS.total]: '100.00',
      [TOTALS_HEADERS.balance_due]: '100.00',
      [HEADERS.requestId]: 'req_2',
      ...extra,
    },
  });
}

/** A client whose fetch gives `answers` in turn and whose sleep records each wait. */
function scripted(answers: Answer[], options: Parameters<typeof createClient>[0]['retry'] = {}) {
  const requests: Request[] = [];
  const waits: number[] = [];
  const client = createClient({
    baseUrl: `${BASE}/`,
    apiKey: 'sk_live_test',
    retry: options,
    sleep: async (ms) => {
      waits.push(ms);
    },
    fetch: async (request) => {
      requests.push(request);
      const next = answers.shift();
      if (next === undefined) throw new Error('the test gave no more answers');
      if (next instanceof Error) throw next;
      return next;
    },
  });
  return { client, requests, waits };
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (error: unknown) => error,
  );

describe('what the client sends', () => {
  it('a final in the binary form: key, version, JSON body, Accept application/pdf, the Idempotency-Key', async () => {
    const { client, requests } = scripted([pdfAnswer()]);
    await client.createDocument(FINAL, { idempotencyKey: 'order-1' });
    const [request] = requests;
    expect(request!.method).toBe('POST');
    expect(request!.url).toBe(`${BASE}/api/v1/documents`);
    expect(request!.headers.get(HEADERS.authorization)).toBe('Bearer sk_live_test');
    expect(request!.headers.get(HEADERS.version)).toBe(NEWEST_API_VERSION);
    expect(request!.headers.get(HEADERS.accept)).toBe('application/pdf');
    expect(request!.headers.get(HEADERS.contentType)).toBe('application/json');
    expect(request!.headers.get(HEADERS.idempotencyKey)).toBe('order-1');
    expect(await request!.json()).toEqual(FINAL);
  });

  it('the JSON form asks for application/json only, which the contract needs to choose it', async () => {
    const json = { document: { id: 'doc_1' }, credit_used: true };
    const { client, requests } = scripted([new Response(JSON.stringify(json), { status: 201 })]);
    expect(await client.createDocument(FINAL, { as: 'json' })).toEqual(json);
    expect(requests[0]!.headers.get(HEADERS.accept)).toBe('application/json');
    expect(requests[0]!.headers.has(HEADERS.idempotencyKey)).toBe(false);
  });

  it('the list query as given, path parameters encoded, and no key header when none was given', async () => {
    const answers = () => [new Response('{}'), new Response('{}'), new Response('[]')];
    const { client, requests } = scripted(answers());
    await client.listDocuments({ limit: 5, starting_after: 'doc_9', reference: 'a b&c' });
    await client.getTemplate('in/voice');
    await client.listDocuments();
    expect(requests.map((request) => request.url)).toEqual([
      `${BASE}/api/v1/documents?limit=5&starting_after=doc_9&reference=a+b%26c`,
      `${BASE}/api/v1/templates/in%2Fvoice`,
      `${BASE}/api/v1/documents`,
    ]);
    const anonymous = createClient({
      baseUrl: BASE,
      fetch: async (request) => new Response(JSON.stringify([request.headers.has(HEADERS.authorization)])),
    });
    expect(await anonymous.listTemplates()).toEqual([false]);
  });
});

describe('what the client reads', () => {
  it('the PDF as bytes and every Svc-* header of a 201, totals holding only the members sent', async () => {
    const { client } = scripted([pdfAnswer({ [HEADERS.reference]: 'order-7' })]);
    expect(await client.createDocument(FINAL)).toEqual({
      pdf: new Uint8Array([0x25, 0x50, 0x44, 0x46]),
      documentId: 'doc_1',
      sha256: 'ab'.repeat(32),
      template: 'invoice',
      templateVersion: '2.0.0',
      mode: 'final',
      creditUsed: true,
      creditsRemaining: 4,
      replay: false,
      reference: 'order-7',
      totals: { currency: 'EUR', subtotal: '100.00', total: '100.00', balance_due: '100.00' },
      location: '/api/v1/documents/doc_1',
      filename: 'invoice-INV-1.pdf',
      requestId: 'req_2',
    });
  });

  it('a replay and no reference', async () => {
    const { client } = scripted([pdfAnswer({ [HEADERS.idempotentReplay]: 'true', [HEADERS.creditUsed]: 'false' })]);
    expect(await client.createDocument(FINAL, { idempotencyKey: 'k' })).toMatchObject({ replay: true, creditUsed: false, reference: null });
  });

  it('the full UTF-8 file name of filename*, the plain one otherwise (RFC 6266)', () => {
    expect(filenameOf(`attachment; filename="receipt-R-_.pdf"; filename*=UTF-8''receipt-R-%C3%9C%20%3B.pdf`)).toBe('receipt-R-Ü ;.pdf');
    expect(filenameOf('attachment; filename="a \\"b\\".pdf"')).toBe('a "b".pdf');
    expect(filenameOf('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(filenameOf(`attachment; filename="fallback.pdf"; filename*=UTF-8''bad%E0%A4`)).toBe('fallback.pdf');
    expect(filenameOf(null)).toBeNull();
  });

  it('an error answer: every member of the error object, as SvcApiError', async () => {
    const details = [{ code: 'required', message: 'seller_name is required.', field: 'fields.seller_name' }];
    const { client } = scripted([contractError('validation_failed', { details })]);
    const error = (await caught(client.validateDocument(FINAL))) as SvcApiError;
    expect(error).toBeInstanceOf(SvcApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation_failed',
      message: ERRORS.validation_failed.meaning,
      details,
      requestId: 'req_1',
      docsUrl: `${BASE}/docs/api/errors#validation_failed`,
      creditUsed: false,
      retryAfter: null,
    });
    expect((error.body as { error: { code: string } }).error.code).toBe('validation_failed');
  });

  it('an answer that is not the error object (a firewall in front): code null, the status and text kept', async () => {
    const { client } = scripted([new Response('Too many', { status: 429, headers: { [HEADERS.retryAfter]: '120' } })], { maxAttempts: 1 });
    const error = (await caught(client.listTemplates())) as SvcApiError;
    expect(error).toMatchObject({ status: 429, code: null, body: 'Too many', requestId: null, creditUsed: undefined, retryAfter: 120 });
  });

  it('a code this client does not know is null, its status and body kept (spec 9.2)', async () => {
    const body = { error: { code: 'new_code', message: 'Later.', request_id: 'req_3', docs_url: 'x' }, credit_used: false };
    const { client } = scripted([new Response(JSON.stringify(body), { status: 409 })]);
    expect(await caught(client.getAccount())).toMatchObject({ status: 409, code: null, message: 'Later.', requestId: 'req_3', body });
  });

  it('Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-02T10:00:00Z');
    expect(retryAfterSeconds('5', now)).toBe(5);
    expect(retryAfterSeconds('Mon, 02 Nov 2026 10:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
  });
});

describe('retries that follow the contract', () => {
  it('409 idempotency_in_progress: waits its Retry-After and sends the same key again', async () => {
    const { client, requests, waits } = scripted([
      contractError('idempotency_in_progress', { headers: { [HEADERS.retryAfter]: '5' } }),
      pdfAnswer(),
    ]);
    expect((await client.createDocument(FINAL, { idempotencyKey: 'order-1' })).documentId).toBe('doc_1');
    expect(waits).toEqual([5000]);
    expect(requests.map((request) => request.headers.get(HEADERS.idempotencyKey))).toEqual(['order-1', 'order-1']);
    expect(await requests[1]!.json()).toEqual(FINAL);
  });

  for (const code of ['rate_limited', 'engine_busy', 'service_busy'] as const) {
    it(`${ERRORS[code].status} ${code} states nothing was charged: even a final without a key is sent again after Retry-After`, async () => {
      const { client, requests, waits } = scripted([waitFor(code, 2), pdfAnswer()]);
      expect((await client.createDocument(FINAL)).documentId).toBe('doc_1');
      expect(waits).toEqual([2000]);
      expect(requests).toHaveLength(2);
    });
  }

  it('500 commit_status_unknown with a key: the same key again after the 35 s takeover time, charged once at most', async () => {
    const { client, requests, waits } = scripted([
      contractError('commit_status_unknown'),
      pdfAnswer({ [HEADERS.idempotentReplay]: 'true' }),
    ]);
    expect((await client.createDocument(FINAL, { idempotencyKey: 'order-2' })).replay).toBe(true);
    expect(waits).toEqual([LIMITS.idempotencyTakeoverSeconds * 1000]);
    expect(requests.map((request) => request.headers.get(HEADERS.idempotencyKey))).toEqual(['order-2', 'order-2']);
  });

  it('500 commit_status_unknown without a key: never sent again (a second request would be a second charge)', async () => {
    const { client, requests, waits } = scripted([contractError('commit_status_unknown'), pdfAnswer()]);
    expect(await caught(client.createDocument(FINAL))).toMatchObject({ code: 'commit_status_unknown', creditUsed: null });
    expect(requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('a 503 that is not the API’s (nothing said about a charge): an unkeyed final is not sent again; a keyed one and a read are', async () => {
    const proxyBusy = () => new Response('<html>busy</html>', { status: 503, headers: { [HEADERS.retryAfter]: '3' } });
    const unkeyed = scripted([proxyBusy(), pdfAnswer()]);
    expect(await caught(unkeyed.client.createDocument(FINAL))).toMatchObject({ status: 503, code: null });
    expect(unkeyed.requests).toHaveLength(1);

    const keyed = scripted([proxyBusy(), pdfAnswer()]);
    await keyed.client.createDocument(FINAL, { idempotencyKey: 'order-3' });
    expect(keyed.waits).toEqual([3000]);

    const read = scripted([proxyBusy(), new Response('[]')]);
    expect(await read.client.listTemplates()).toEqual([]);
    expect(read.waits).toEqual([3000]);
  });

  it('a network failure: an unkeyed final is not sent again; a keyed one is, waiting 1 s then 2 s', async () => {
    const unkeyed = scripted([new TypeError('fetch failed'), pdfAnswer()]);
    const error = await caught(unkeyed.client.createDocument(FINAL));
    expect(error).toBeInstanceOf(SvcNetworkError);
    expect((error as SvcNetworkError).cause).toBeInstanceOf(TypeError);
    expect(unkeyed.requests).toHaveLength(1);

    const keyed = scripted([new TypeError('fetch failed'), new TypeError('fetch failed'), pdfAnswer()]);
    expect((await keyed.client.createDocument(FINAL, { idempotencyKey: 'order-4' })).documentId).toBe('doc_1');
    expect(keyed.waits).toEqual([1000, 2000]);

    const validate = scripted([new TypeError('fetch failed'), new Response('{"valid":true}')]);
    expect(await validate.client.validateDocument(FINAL)).toEqual({ valid: true });
  });

  it('a connection that breaks while the answer is read is a network failure, retried like one', async () => {
    const broken = new Response(new ReadableStream({ pull: (controller) => controller.error(new TypeError('terminated')) }), {
      status: 201,
    });
    const { client, requests } = scripted([broken, pdfAnswer()]);
    expect((await client.createDocument(FINAL, { idempotencyKey: 'order-5' })).documentId).toBe('doc_1');
    expect(requests).toHaveLength(2);
  });

  it('bounded: at most maxAttempts requests (3 by default), then the last answer is thrown', async () => {
    const limited = () => waitFor('rate_limited', 1);
    const byDefault = scripted([limited(), limited(), limited(), limited()]);
    expect(await caught(byDefault.client.listTemplates())).toMatchObject({ code: 'rate_limited' });
    expect(byDefault.requests).toHaveLength(3);
    expect(byDefault.waits).toEqual([1000, 1000]);

    const five = scripted([limited(), limited(), limited(), limited(), limited(), limited()], { maxAttempts: 5 });
    await caught(five.client.listTemplates());
    expect(five.requests).toHaveLength(5);

    const unset = scripted([limited(), limited(), limited(), limited()], { maxAttempts: undefined, maxWaitSeconds: undefined });
    await caught(unset.client.listTemplates());
    expect(unset.requests).toHaveLength(3);

    const off = scripted([limited(), new Response('[]')], { maxAttempts: 1 });
    await caught(off.client.listTemplates());
    expect(off.requests).toHaveLength(1);
  });

  it('retry: false sends each request once', async () => {
    const requests: Request[] = [];
    const client = createClient({
      baseUrl: BASE,
      retry: false,
      fetch: async (request) => {
        requests.push(request);
        return waitFor('service_busy', 1);
      },
    });
    await caught(client.listTemplates());
    expect(requests).toHaveLength(1);
  });

  it('a Retry-After longer than maxWaitSeconds (60 by default) is thrown at once for the caller to decide', async () => {
    const { client, requests } = scripted([waitFor('rate_limited', 3600), new Response('[]')]);
    expect(await caught(client.listTemplates())).toMatchObject({ code: 'rate_limited', retryAfter: 3600 });
    expect(requests).toHaveLength(1);

    const short = scripted([contractError('commit_status_unknown'), pdfAnswer()], { maxWaitSeconds: 30 });
    await caught(short.client.createDocument(FINAL, { idempotencyKey: 'order-6' }));
    expect(short.requests).toHaveLength(1);
  });

  it('refusals and other failures are thrown at once, whatever the key', async () => {
    for (const code of [
      'validation_failed',
      'insufficient_credits',
      'idempotency_key_reused',
      'internal_error',
      'render_timeout',
    ] as const) {
      const { client, requests } = scripted([contractError(code), pdfAnswer()]);
      expect(await caught(client.createDocument(FINAL, { idempotencyKey: 'order-7' }))).toMatchObject({
        code,
        status: ERRORS[code].status,
      });
      expect(requests).toHaveLength(1);
    }
  });
});

describe('newIdempotencyKey', () => {
  it('makes a fresh key the service accepts each time', () => {
    const keys = [newIdempotencyKey(), newIdempotencyKey()];
    expect(keys[0]).not.toBe(keys[1]);
    for (const key of keys) expect(readIdempotencyKey(key)).toBe(key);
  });
});
