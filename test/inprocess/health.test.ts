import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { seedCaller } from '../support/accounts.ts';
import { BASE, createTestApp, interceptDb, TestClock, testFonts } from '../support/app.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

/** The JSON lines the handler writes on stderr (warn and error) while `run` runs. */
async function stderrDuring(run: () => Promise<void>): Promise<Record<string, unknown>[]> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void lines.push(String(line)));
  try {
    await run();
  } finally {
    spy.mockRestore();
  }
  return lines.map((line) => JSON.parse(line));
}

/** What a probe must see when the database does not answer: 503 service_busy with Retry-After, never a 500, no cause. */
async function expectUnavailable(response: Response, cause: string): Promise<void> {
  expect(response.status).toBe(503);
  expect(response.headers.get('Retry-After')).toBe('2');
  expect(response.headers.get('Cache-Control')).toBe('no-store');
  const text = await response.text();
  expect(text).not.toContain(cause);
  const body = JSON.parse(text);
  expect(body.status).toBe('unavailable');
  expect(body.error).toMatchObject({ code: 'service_busy', request_id: response.headers.get('Svc-Request-Id') });
  expect(body.error.message).toContain('database');
  expect(body.error.details).toBeUndefined();
}

describe('GET /health when the database does not answer', () => {
  it('is 503 service_busy with Retry-After on a closed connection, GET and HEAD, and logs the cause as a warning', async () => {
    const { db, client } = await openDatabase(':memory:');
    client.close();
    const fetch = createApp({ db, clock: new TestClock(), config: loadConfig({}, { logRequests: false }), fonts: testFonts() });
    let get: Response | undefined;
    let head: Response | undefined;
    const logged = await stderrDuring(async () => {
      get = await fetch(new Request(`${BASE}/health`));
      head = await fetch(new Request(`${BASE}/health`, { method: 'HEAD' }));
    });
    await expectUnavailable(get!, 'connection is closed');
    expect(head!.status).toBe(503);
    expect(head!.headers.get('Retry-After')).toBe('2');
    expect(await head!.text()).toBe('');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({
      level: 'warn',
      event: 'failure',
      request_id: get!.headers.get('Svc-Request-Id'),
      error: expect.stringContaining('the database connection is closed'),
    });
  });

  it('is 503, not 500, whatever the database’s error (a corrupt file), and the cause stays out of the answer', async () => {
    const cause = 'SQLITE_CORRUPT: database disk image is malformed';
    const app = await createTestApp({
      wrapDb: (db) =>
        interceptDb(db, {
          run: () => () => Promise.reject(Object.assign(new Error(cause), { code: 'SQLITE_CORRUPT' })),
        }),
    });
    let response: Response | undefined;
    const logged = await stderrDuring(async () => {
      response = await app.call('/health');
    });
    await expectUnavailable(response!, cause);
    // Not a busy database but a fault to look at: an error line, where a closed connection is a warning.
    expect(logged).toEqual([expect.objectContaining({ level: 'error', event: 'failure', error: expect.stringContaining(cause) })]);
    expect((await app.call('/api/v1/templates')).status).toBe(200);
  });
});

describe('GET /health and the rate limits', () => {
  it('is counted in no limit: past a key’s 120 requests a minute it still answers, without RateLimit headers, and the key’s count is untouched', async () => {
    const app = await createTestApp({ config: { rateLimitsEnabled: true } });
    const caller = await seedCaller(app);
    const answers = await Promise.all(Array.from({ length: 150 }, () => app.call('/health', { headers: caller.headers })));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    for (const answer of answers) expect(answer.headers.get('RateLimit-Remaining')).toBeNull();
    const account = await app.call('/api/v1/account', { headers: caller.headers });
    expect(account.status).toBe(200);
    expect(account.headers.get('RateLimit-Limit')).toBe('120');
    expect(account.headers.get('RateLimit-Remaining')).toBe('119');
  });
});

describe('GET /health with the API switched off (API_ENABLED=false)', () => {
  it('still answers 200: the instance and its database are up, only /api/v1 is closed', async () => {
    const app = await createTestApp({ env: { API_ENABLED: 'false' } });
    expect((await app.call('/api/v1/templates')).status).toBe(404);
    const response = await app.call('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });
});
