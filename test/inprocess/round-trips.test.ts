import { SQLiteDialect } from 'drizzle-orm/sqlite-core';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { generateKey } from '../../src/auth/key-format.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { finalInvoice, makeDocument, previewInvoice } from '../support/documents.ts';
import { post } from '../support/requests.ts';
import { RoundTrips } from '../support/round-trips.ts';

/**
 * Round trips to the database per request, counted on the client drizzle calls, with rate limits on (as in
 * production), one warm request each (the key used a moment before, its credit period running). Each is a
 * network round trip to the primary on D1 or a libSQL server: a request must not make one more than listed.
 */
const ROUND_TRIPS = {
  'GET /api/v1/templates (no key)': 0,
  'GET /api/v1/account': 1,
  'GET /api/v1/documents': 1,
  'GET /api/v1/documents/{id}': 1,
  'POST /api/v1/documents/validate': 1,
  'POST /api/v1/documents, preview': 2,
  'POST /api/v1/documents, preview with a new Idempotency-Key': 2,
  'POST /api/v1/documents, final': 2,
  'POST /api/v1/documents, final with a new Idempotency-Key': 2,
  'the same Idempotency-Key replayed': 2,
  'a well-formed key that does not exist (401)': 1,
};
type RequestType = keyof typeof ROUND_TRIPS;

/**
 * Statements those round trips send in all: each is work for the database, which runs one writer at a time (the
 * same request with no more of them). A keyed request's sign-in is 3 (its key found, counted in its requests bucket
 * and its last_used_at, all in one; its account; its network's failed sign-in where the key is not valid); a
 * document's commit 2 or 3.
 */
const STATEMENTS: Record<RequestType, number> = {
  'GET /api/v1/templates (no key)': 0,
  'GET /api/v1/account': 3,
  'GET /api/v1/documents': 4,
  'GET /api/v1/documents/{id}': 4,
  'POST /api/v1/documents/validate': 3,
  'POST /api/v1/documents, preview': 8,
  'POST /api/v1/documents, preview with a new Idempotency-Key': 11,
  'POST /api/v1/documents, final': 7,
  'POST /api/v1/documents, final with a new Idempotency-Key': 10,
  'the same Idempotency-Key replayed': 10,
  'a well-formed key that does not exist (401)': 3,
};

let app: TestApp;
let trips: RoundTrips;
let caller: Caller;
let documentId: string;

beforeEach(async () => {
  trips = new RoundTrips();
  app = await createTestApp({ config: { rateLimitsEnabled: true }, wrapDb: (db) => trips.libsql(db) });
  caller = await seedCaller(app, { credits: 10 });
  const made = await makeDocument(app, caller, finalInvoice(), { key: 'made-before' });
  expect(made.status).toBe(201);
  documentId = made.headers.get('Svc-Document-Id')!;
});

const requests: Record<RequestType, { status: number; send: () => Promise<Response> }> = {
  'GET /api/v1/templates (no key)': { status: 200, send: () => app.call('/api/v1/templates') },
  'GET /api/v1/account': { status: 200, send: () => app.call('/api/v1/account', { headers: caller.headers }) },
  'GET /api/v1/documents': { status: 200, send: () => app.call('/api/v1/documents', { headers: caller.headers }) },
  'GET /api/v1/documents/{id}': { status: 200, send: () => app.call(`/api/v1/documents/${documentId}`, { headers: caller.headers }) },
  'POST /api/v1/documents/validate': { status: 200, send: () => post(app, '/api/v1/documents/validate', caller.headers, finalInvoice()) },
  'POST /api/v1/documents, preview': { status: 201, send: () => makeDocument(app, caller, previewInvoice()) },
  'POST /api/v1/documents, preview with a new Idempotency-Key': {
    status: 201,
    send: () => makeDocument(app, caller, previewInvoice(), { key: `new-${crypto.randomUUID()}` }),
  },
  'POST /api/v1/documents, final': { status: 201, send: () => makeDocument(app, caller, finalInvoice()) },
  'POST /api/v1/documents, final with a new Idempotency-Key': {
    status: 201,
    send: () => makeDocument(app, caller, finalInvoice(), { key: `new-${crypto.randomUUID()}` }),
  },
  'the same Idempotency-Key replayed': { status: 201, send: () => makeDocument(app, caller, finalInvoice(), { key: 'made-before' }) },
  'a well-formed key that does not exist (401)': {
    status: 401,
    send: () => app.call('/api/v1/account', { headers: { Authorization: `Bearer ${generateKey()}` } }),
  },
};

describe('round trips to the database per request (rate limits on, warm)', () => {
  for (const [type, expected] of Object.entries(ROUND_TRIPS) as [RequestType, number][]) {
    it(`${type}: ${expected}, ${STATEMENTS[type]} statements`, async () => {
      const { send, status } = requests[type];
      const { trips: made, statements, result } = await trips.during(send);
      expect(result.status, await result.clone().text()).toBe(status);
      expect(made).toBe(expected);
      expect(statements).toBe(STATEMENTS[type]);
      // D1 binds at most 100 parameters to a statement (Cloudflare's D1 limits): the SQL that works out names,
      // limits and conditions from the key's hash must stay within it.
      expect(trips.mostParameters).toBeLessThanOrEqual(100);
    });
  }

  it('a replay answers as the first time: the same document, free', async () => {
    const replayed = await requests['the same Idempotency-Key replayed'].send();
    expect(replayed.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(replayed.headers.get('Svc-Document-Id')).toBe(documentId);
  });
});

/**
 * Statements drizzle builds for a request once the same request has been made: none but a page of the history's,
 * whose conditions (a cursor, a reference) vary. Building a statement cost as much as running it (docs/scaling.md),
 * so every other statement is built once per database and bound per request (src/db/prepared.ts).
 */
const BUILT_EACH_TIME: Partial<Record<RequestType, number>> = { 'GET /api/v1/documents': 1 };

describe('SQL built per request, once the same request has been made (rate limits on)', () => {
  for (const type of Object.keys(ROUND_TRIPS) as RequestType[]) {
    const expected = BUILT_EACH_TIME[type] ?? 0;
    it(`${type}: ${expected}`, async () => {
      const { send, status } = requests[type];
      expect((await send()).status).toBe(status);
      const builds = vi.spyOn(SQLiteDialect.prototype, 'sqlToQuery');
      try {
        expect((await send()).status).toBe(status);
        expect(builds).toHaveBeenCalledTimes(expected);
      } finally {
        builds.mockRestore();
      }
    });
  }
});
