import { beforeEach, describe, expect, it, vi } from 'vitest';
import { rateLimitWindows } from '../../src/db/schema.ts';
import { requestFingerprint } from '../../src/documents/fingerprint.ts';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { BASE, createTestApp, type TestApp, withLimiterDown } from '../support/app.ts';
import { expectRefusal, finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { seedKeyBucket } from '../support/key-counters.ts';
import { acquireLease } from '../support/leases.ts';

/**
 * Section 8 with more than one window involved: two full windows of the caller's own, the caller's limit
 * together with the shared preview ceiling, and which bucket the RateLimit headers report.
 */
let app: TestApp;
let caller: Caller;
const HOUR = 3_600_000;
const DAY = 86_400_000;
// 10:20 UTC: the hour window resets in 40 minutes, the day window in 13 h 40 min.
const NOW = Date.parse('2026-11-02T10:20:00Z');
const HOUR_RESET = 40 * 60;
const DAY_RESET = 13 * 3600 + 40 * 60;

beforeEach(async () => {
  app = await createTestApp({ config: { rateLimitsEnabled: true } });
  caller = await seedCaller(app, { credits: 500 });
  app.clock.current = NOW;
});

const preview = () => ({ ...finalInvoice(), mode: 'preview' });
const rateHeaders = (response: Response) =>
  ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((name) => response.headers.get(name));

/** Sets a bucket's count in its current window, as if earlier requests had used it. */
async function seedWindow(name: string, windowMs: number, count: number) {
  const start = Math.floor(app.clock.now() / windowMs) * windowMs;
  await app.db
    .insert(rateLimitWindows)
    .values({ bucket: name, windowStart: start, count, expiresAt: start + windowMs })
    .onConflictDoUpdate({ target: [rateLimitWindows.bucket, rateLimitWindows.windowStart], set: { count } });
}

describe('the windows a request is counted in', () => {
  it('are stored to expire when they end, so that the purge never drops a window still counting', async () => {
    expect((await makeDocument(app, caller, preview())).status).toBe(201);
    const rows = await app.db.select().from(rateLimitWindows);
    const lengthOf = (bucket: string) => (bucket.endsWith(':day') ? DAY : bucket.endsWith(':hour') ? HOUR : 60_000);
    expect(rows.length).toBeGreaterThan(2);
    for (const row of rows) {
      expect(row.windowStart, row.bucket).toBe(NOW - (NOW % lengthOf(row.bucket)));
      expect(row.expiresAt, row.bucket).toBe(row.windowStart + lengthOf(row.bucket));
    }
  });
});

describe('a preview that does not get as far as its buckets', () => {
  const previewRows = async () => (await app.db.select().from(rateLimitWindows)).filter((row) => row.bucket.startsWith('preview:'));

  it('refused by the key’s requests bucket, counts in none of the preview’s', async () => {
    await seedKeyBucket(app, caller.keyId, 'requests', 120);
    await expectRefusal(await makeDocument(app, caller, preview()), 429, 'rate_limited', 'request_key_limit');
    expect(await previewRows()).toEqual([]);
  });

  it('replayed by its Idempotency-Key, counts in the replay’s buckets, not again in the preview’s', async () => {
    expect((await makeDocument(app, caller, preview(), { key: 'preview-once' })).status).toBe(201);
    const counted = await previewRows();
    expect(counted.map((row) => row.count)).toEqual(counted.map(() => 1));
    expect((await makeDocument(app, caller, preview(), { key: 'preview-once' })).status).toBe(201);
    expect(await previewRows()).toEqual(counted);
    const replays = (await app.db.select().from(rateLimitWindows)).filter((row) => row.bucket.startsWith('replay:preview:'));
    expect(replays.length).toBeGreaterThan(0);
  });
});

describe('two full windows of the caller’s own', () => {
  it('key hour and key day full: 429 preview_key_limit, Retry-After until the later (day) reset', async () => {
    await seedWindow(`preview:key:${caller.keyId}:hour`, HOUR, 30);
    await seedWindow(`preview:key:${caller.keyId}:day`, DAY, 200);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_key_limit');
    expect(refused.headers.get('Retry-After')).toBe(String(DAY_RESET));
    expect(rateHeaders(refused).slice(1)).toEqual(['0', String(DAY_RESET)]);
    expect((await ledger(app, caller)).documents).toBe(0);
  });

  it('account hour and account day full: 429 preview_user_limit, Retry-After until the day resets', async () => {
    await seedWindow(`preview:account:${caller.account.id}:hour`, HOUR, 60);
    await seedWindow(`preview:account:${caller.account.id}:day`, DAY, 300);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_user_limit');
    expect(refused.headers.get('Retry-After')).toBe(String(DAY_RESET));
  });

  it('key hour and account day full: Retry-After until the day resets, naming the limit that holds that long', async () => {
    await seedWindow(`preview:key:${caller.keyId}:hour`, HOUR, 30);
    await seedWindow(`preview:account:${caller.account.id}:day`, DAY, 300);
    const refused = await makeDocument(app, caller, preview());
    const body = await expectRefusal(refused, 429, 'rate_limited', 'preview_user_limit');
    expect(refused.headers.get('Retry-After')).toBe(String(DAY_RESET));
    expect(body.error.message).toContain(`retry in ${DAY_RESET} seconds`);
  });

  it('only the hour full: Retry-After is the hour’s reset, not the day’s', async () => {
    await seedWindow(`preview:key:${caller.keyId}:hour`, HOUR, 30);
    await seedWindow(`preview:key:${caller.keyId}:day`, DAY, 199);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_key_limit');
    expect(refused.headers.get('Retry-After')).toBe(String(HOUR_RESET));
  });
});

describe('the caller’s own limit together with the shared preview ceiling', () => {
  it.each([
    [
      'key hour with the shared hour',
      (c: Caller) => `preview:key:${c.keyId}:hour`,
      HOUR,
      30,
      'preview:global:hour',
      HOUR,
      1_500,
      'preview_key_limit',
      HOUR_RESET,
    ],
    [
      'key hour with the shared day',
      (c: Caller) => `preview:key:${c.keyId}:hour`,
      HOUR,
      30,
      'preview:global:day',
      DAY,
      10_000,
      'preview_key_limit',
      DAY_RESET,
    ],
    [
      'account day with the shared hour',
      (c: Caller) => `preview:account:${c.account.id}:day`,
      DAY,
      300,
      'preview:global:hour',
      HOUR,
      1_500,
      'preview_user_limit',
      DAY_RESET,
    ],
  ])(
    '%s: the caller’s 429 comes before the ceiling’s 503, Retry-After until both have reset',
    async (_, own, ownMs, ownLimit, shared, sharedMs, sharedLimit, detail, retryAfter) => {
      await seedWindow(own(caller), ownMs, ownLimit);
      await seedWindow(shared, sharedMs, sharedLimit);
      const refused = await makeDocument(app, caller, preview());
      await expectRefusal(refused, 429, 'rate_limited', detail);
      expect(refused.headers.get('Retry-After')).toBe(String(retryAfter));
      expect(rateHeaders(refused)[0]).toBe(String(ownLimit));
    },
  );

  it('the ceiling alone is 503 service_busy / preview_global_limit', async () => {
    await seedWindow('preview:global:day', DAY, 10_000);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 503, 'service_busy', 'preview_global_limit');
    expect(refused.headers.get('Retry-After')).toBe(String(DAY_RESET));
    expect(rateHeaders(refused)[0]).toBe('120');
  });
});

describe('RateLimit headers report one bucket of the yes rows of section 8', () => {
  it('the requests bucket, on a route with no other', async () => {
    const response = await app.fetch(new Request(`${BASE}/api/v1/account`, { headers: caller.headers }));
    expect(rateHeaders(response)).toEqual(['120', '119', '60']);
  });

  it('the final bucket, when a new final has least left in it', async () => {
    const response = await makeDocument(app, caller, finalInvoice());
    expect(response.status).toBe(201);
    expect(rateHeaders(response)).toEqual(['10', '9', '60']);
  });

  it.each([
    ['key hour', (c: Caller) => `preview:key:${c.keyId}:hour`, HOUR, 20, ['30', '9', String(HOUR_RESET)]],
    ['key day', (c: Caller) => `preview:key:${c.keyId}:day`, DAY, 195, ['200', '4', String(DAY_RESET)]],
    ['account hour', (c: Caller) => `preview:account:${c.account.id}:hour`, HOUR, 56, ['60', '3', String(HOUR_RESET)]],
    ['account day', (c: Caller) => `preview:account:${c.account.id}:day`, DAY, 298, ['300', '1', String(DAY_RESET)]],
  ])('the preview %s bucket, when it has least left', async (_, bucket, ms, used, expected) => {
    await seedWindow(bucket(caller), ms, used);
    const response = await makeDocument(app, caller, preview());
    expect(response.status).toBe(201);
    expect(rateHeaders(response)).toEqual(expected);
  });

  it.each([
    ['hour', HOUR, 1_500],
    ['day', DAY, 10_000],
  ])('never the shared preview %s ceiling, even when it has least left', async (window, ms, limit) => {
    await seedWindow(`preview:global:${window}`, ms, limit - 1);
    const response = await makeDocument(app, caller, preview());
    expect(response.status).toBe(201);
    expect(rateHeaders(response)).toEqual(['30', '29', String(HOUR_RESET)]);
  });

  it.each([
    ['final', 'per key a minute', (c: Caller) => `replay:final:key:${c.keyId}:minute`, 60_000, 60],
    ['final', 'per account a minute', (c: Caller) => `replay:final:account:${c.account.id}:minute`, 60_000, 120],
    ['final', 'per account an hour', (c: Caller) => `replay:final:account:${c.account.id}:hour`, HOUR, 600],
    ['preview', 'per key an hour', (c: Caller) => `replay:preview:key:${c.keyId}:hour`, HOUR, 30],
    ['preview', 'per key a day', (c: Caller) => `replay:preview:key:${c.keyId}:day`, DAY, 200],
    ['preview', 'per account an hour', (c: Caller) => `replay:preview:account:${c.account.id}:hour`, HOUR, 60],
    ['preview', 'per account a day', (c: Caller) => `replay:preview:account:${c.account.id}:day`, DAY, 300],
  ])('never a replay bucket: a %s replay with one left %s reports the requests bucket', async (mode, _, bucket, ms, limit) => {
    const body = { ...finalInvoice(), mode };
    expect((await makeDocument(app, caller, body, { key: 'r-1' })).status).toBe(201);
    await seedWindow(bucket(caller), ms, limit - 1);
    const replay = await makeDocument(app, caller, body, { key: 'r-1' });
    expect(replay.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(rateHeaders(replay)).toEqual(['120', '118', '60']);
  });

  it('never the failed-sign-in counter', async () => {
    const failed = await app.fetch(new Request(`${BASE}/api/v1/account`, { headers: { Authorization: 'Bearer wrong' } }), {
      clientAddress: '198.51.100.1',
    });
    expect(failed.status).toBe(401);
    expect(rateHeaders(failed)).toEqual([null, null, null]);
  });

  it.each([
    ['a validation failure', () => makeDocument(app, caller, { ...preview(), fields: { ...finalInvoice().fields, date: 'soon' } }), 422],
    ['a reused key', () => makeDocument(app, caller, { ...preview(), reference: 'other' }, { key: 'p-1' }), 422],
    ['a key in progress', () => makeDocument(app, caller, preview(), { key: 'p-2' }), 409],
  ])('an answer that ends before the mode’s buckets (%s) reports the requests bucket only', async (_, send, status) => {
    expect((await makeDocument(app, caller, preview(), { key: 'p-1' })).status).toBe(201);
    await acquireLease(app.db, {
      accountId: caller.account.id,
      key: 'p-2',
      fingerprint: requestFingerprint(parseDocumentRequest(parseJson(JSON.stringify(preview())))),
      now: app.clock.now(),
    });
    // Fill the preview key hour so that, were the mode's buckets counted, they would be reported instead.
    await seedWindow(`preview:key:${caller.keyId}:hour`, HOUR, 29);
    const response = await send();
    expect(response.status).toBe(status);
    expect(rateHeaders(response)).toEqual(['120', '118', '60']);
  });
});

describe('seconds and counts as the headers state them', () => {
  it('Retry-After and RateLimit-Reset round a part second up, so a client that waits them is never early', async () => {
    app.clock.current = NOW + 250;
    await seedWindow(`preview:key:${caller.keyId}:hour`, HOUR, 30);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_key_limit');
    expect(refused.headers.get('Retry-After')).toBe(String(HOUR_RESET));
    expect(refused.headers.get('RateLimit-Reset')).toBe(String(HOUR_RESET));
    app.clock.current = NOW + 999;
    const admitted = await app.fetch(new Request(`${BASE}/api/v1/account`, { headers: caller.headers }));
    expect(rateHeaders(admitted)).toEqual(['120', '118', '60']);
  });

  it('never states a negative remaining, even for a window counted past a limit since lowered', async () => {
    await seedWindow(`preview:key:${caller.keyId}:hour`, HOUR, 35);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_key_limit');
    expect(rateHeaders(refused)).toEqual(['30', '0', String(HOUR_RESET)]);
  });

  it.each([
    ['the preview key hour', (c: Caller) => `preview:key:${c.keyId}:hour`, HOUR, 30, 'preview_key_limit', 'Limit reached (30 per hour)'],
    [
      'the preview account day',
      (c: Caller) => `preview:account:${c.account.id}:day`,
      DAY,
      300,
      'preview_user_limit',
      'Limit reached (300 per day)',
    ],
  ])('a refusal’s message names %s limit and its window', async (_, bucket, ms, limit, detail, words) => {
    await seedWindow(bucket(caller), ms, limit);
    const body = await expectRefusal(await makeDocument(app, caller, preview()), 429, 'rate_limited', detail);
    expect(body.error.message).toContain(words);
  });

  it('a refusal’s message names the minute and the ten minutes', async () => {
    app.clock.current = Date.parse('2026-11-02T10:20:30Z');
    await seedKeyBucket(app, caller.keyId, 'requests', 120);
    const requests = await expectRefusal(
      await app.fetch(new Request(`${BASE}/api/v1/account`, { headers: caller.headers })),
      429,
      'rate_limited',
      'request_key_limit',
    );
    expect(requests.error.message).toContain('(120 per minute); retry in 30 seconds');
    await seedWindow('auth-failure:198.51.100.1', 600_000, 20);
    const signIn = await app.fetch(new Request(`${BASE}/api/v1/account`), { clientAddress: '198.51.100.1' });
    const failures = await expectRefusal(signIn, 429, 'rate_limited', 'auth_failure_limit');
    expect(failures.error.message).toContain('(20 per 10 minutes); retry in 570 seconds');
  });
});

describe('RATE_LIMITS_ENABLED=false', () => {
  it('counts, refuses and reports nothing', async () => {
    const unlimited = await createTestApp({ config: { rateLimitsEnabled: false } });
    const who = await seedCaller(unlimited, { credits: 5 });
    const response = await makeDocument(unlimited, who, finalInvoice());
    expect(response.status).toBe(201);
    expect(rateHeaders(response)).toEqual([null, null, null]);
    const failed = await unlimited.fetch(new Request(`${BASE}/api/v1/account`), { clientAddress: '198.51.100.1' });
    expect(failed.status).toBe(401);
    expect(await unlimited.db.select().from(rateLimitWindows)).toEqual([]);
  });
});

describe('503 limiter_unavailable, for the operator', () => {
  it('logs one error line that names the request and the limiter, and keeps the cause out of the answer', async () => {
    const broken = await createTestApp({
      config: { rateLimitsEnabled: true },
      wrapDb: withLimiterDown,
    });
    const who = await seedCaller(broken, { credits: 5 });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const response = await broken.fetch(new Request(`${BASE}/api/v1/account`, { headers: who.headers }));
      const body = await expectRefusal(response, 503, 'service_busy', 'limiter_unavailable');
      expect(JSON.stringify(body)).not.toContain('limiter storage down');
      // Section 7: service_busy means the request was not processed; the message says so, so a client may retry.
      expect(body.error.message).toContain('not processed');
      const lines = logged.mock.calls.map(([line]) => JSON.parse(String(line)));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        level: 'error',
        event: 'rate_limiter_unavailable',
        request_id: response.headers.get('Svc-Request-Id'),
      });
      expect(lines[0].error).toMatch(/^rate limiter: .*limiter storage down/);
    } finally {
      logged.mockRestore();
    }
  });
});
