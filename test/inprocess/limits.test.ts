import { eq, like } from 'drizzle-orm';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PLAN_NAMES, PLANS } from '../../src/accounts/plans.ts';
import type { Database } from '../../src/db/database.ts';
import { accounts, rateLimitWindows } from '../../src/db/schema.ts';
import { addKey, type Caller, seedCaller } from '../support/accounts.ts';
import { BASE, countsInWindows, createTestApp, interceptDb, type TestApp, withLimiterDown } from '../support/app.ts';
import { expectRefusal, finalInvoice, ledger, makeDocument } from '../support/documents.ts';
import { keyBucket, seedKeyBucket } from '../support/key-counters.ts';

let app: TestApp;
let caller: Caller;
const MINUTE_START = Date.parse('2026-11-02T10:00:00Z');
beforeEach(async () => {
  app = await createTestApp({ config: { rateLimitsEnabled: true } });
  caller = await seedCaller(app, { credits: 500 });
});

const preview = () => ({ ...finalInvoice(), mode: 'preview' });
const account = (who: Caller = caller, address = '203.0.113.9') =>
  app.fetch(new Request(`${BASE}/api/v1/account`, { headers: who.headers }), { clientAddress: address });
const rateHeaders = (response: Response) =>
  ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((name) => response.headers.get(name));

/** Sets a bucket's count in its current window, as if earlier requests had used it. */
async function seedWindow(name: string, windowMs: number, count: number) {
  const start = Math.floor(app.clock.now() / windowMs) * windowMs;
  await app.db.insert(rateLimitWindows).values({ bucket: name, windowStart: start, count, expiresAt: start + windowMs });
}

describe('requests per key (120 a minute, every authenticated request)', () => {
  it('admits 120 in a minute, refuses the 121st with Retry-After, and the refusals add nothing to the count', async () => {
    app.clock.current = MINUTE_START + 15_000;
    for (let i = 1; i <= 120; i++) {
      const response = await account();
      expect(response.status).toBe(200);
      if (i === 1 || i === 120) expect(rateHeaders(response)).toEqual(['120', String(120 - i), '45']);
    }
    const refused = await account();
    await expectRefusal(refused, 429, 'rate_limited', 'request_key_limit');
    expect(refused.headers.get('Retry-After')).toBe('45');
    expect(rateHeaders(refused)).toEqual(['120', '0', '45']);
    for (let i = 0; i < 3; i++) expect((await account()).status).toBe(429);
    // Counted on the key's row, which a refusal marks with the limit + 1 (it answers the row either way).
    expect(await keyBucket(app, caller.keyId, 'requests')).toEqual({ start: MINUTE_START, count: 121 });
    expect(await app.db.select().from(rateLimitWindows), 'no row of its own in the windows').toEqual([]);
  });

  it('window boundaries: refused in the last second of the minute, admitted at the first of the next', async () => {
    app.clock.current = MINUTE_START;
    await seedKeyBucket(app, caller.keyId, 'requests', 120);
    app.clock.current = MINUTE_START + 59_999;
    const last = await account();
    expect(last.status).toBe(429);
    expect(last.headers.get('Retry-After')).toBe('1');
    app.clock.current = MINUTE_START + 60_000;
    const next = await account();
    expect(next.status).toBe(200);
    expect(rateHeaders(next)).toEqual(['120', '119', '60']);
  });

  it('counts each key on its own', async () => {
    await seedKeyBucket(app, caller.keyId, 'requests', 120);
    const other = await addKey(app, caller.account.id);
    expect((await account()).status).toBe(429);
    expect((await account({ ...caller, ...other })).status).toBe(200);
  });
});

describe('new finals per key (free 10 a minute; replays not counted)', () => {
  it('admits 10, refuses the 11th with final_key_limit and charges nothing for it', async () => {
    app.clock.current = MINUTE_START + 30_000;
    for (let i = 0; i < 10; i++) {
      const response = await makeDocument(app, caller, finalInvoice(), { key: `f-${i}` });
      expect(response.status).toBe(201);
      if (i === 9) expect(rateHeaders(response)).toEqual(['10', '0', '30']);
    }
    const refused = await makeDocument(app, caller, finalInvoice(), { key: 'f-10' });
    await expectRefusal(refused, 429, 'rate_limited', 'final_key_limit');
    expect(refused.headers.get('Retry-After')).toBe('30');
    expect(rateHeaders(refused)).toEqual(['10', '0', '30']);
    expect(await ledger(app, caller)).toMatchObject({ credits: 490, documents: 10 });
    const replay = await makeDocument(app, caller, finalInvoice(), { key: 'f-3' });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(rateHeaders(replay)).toEqual(['120', '108', '30']);
    expect((await makeDocument(app, caller, finalInvoice(), { key: 'f-10' })).status).toBe(429);
  });
});

describe('previews (per key 30/hour and 200/day, per account 60/hour and 300/day, everyone 1,500/hour and 10,000/day)', () => {
  it('refuses a key past 30 an hour with preview_key_limit', async () => {
    app.clock.current = Date.parse('2026-11-02T10:59:00Z');
    await seedWindow(`preview:key:${caller.keyId}:hour`, 3_600_000, 30);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_key_limit');
    expect(refused.headers.get('Retry-After')).toBe('60');
    expect(rateHeaders(refused)).toEqual(['30', '0', '60']);
    app.clock.current = Date.parse('2026-11-02T11:00:00Z');
    expect((await makeDocument(app, caller, preview())).status).toBe(201);
  });

  it('refuses a key past 200 a day, until 00:00 UTC', async () => {
    app.clock.current = Date.parse('2026-11-02T23:00:00Z');
    await seedWindow(`preview:key:${caller.keyId}:day`, 86_400_000, 200);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_key_limit');
    expect(refused.headers.get('Retry-After')).toBe('3600');
    expect(rateHeaders(refused)).toEqual(['200', '0', '3600']);
  });

  it('counts every key of the account together: 60 an hour → preview_user_limit', async () => {
    const second = { ...caller, ...(await addKey(app, caller.account.id)) };
    const third = { ...caller, ...(await addKey(app, caller.account.id)) };
    for (const who of [caller, second]) await seedWindow(`preview:key:${who.keyId}:hour`, 3_600_000, 30);
    await seedWindow(`preview:account:${caller.account.id}:hour`, 3_600_000, 60);
    app.clock.current = Date.parse('2026-11-02T10:45:00Z');
    const refused = await makeDocument(app, third, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_user_limit');
    expect(rateHeaders(refused)).toEqual(['60', '0', '900']);
  });

  it('refuses an account past 300 a day', async () => {
    await seedWindow(`preview:account:${caller.account.id}:day`, 86_400_000, 300);
    app.clock.current = Date.parse('2026-11-02T22:00:00Z');
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 429, 'rate_limited', 'preview_user_limit');
    expect(rateHeaders(refused)).toEqual(['300', '0', '7200']);
  });

  it.each([
    ['hour', 3_600_000, 1_500],
    ['day', 86_400_000, 10_000],
  ])("answers 503 service_busy / preview_global_limit when everyone's previews reach the %s ceiling", async (window, ms, limit) => {
    await seedWindow(`preview:global:${window}`, ms, limit);
    const refused = await makeDocument(app, caller, preview());
    await expectRefusal(refused, 503, 'service_busy', 'preview_global_limit');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(rateHeaders(refused).slice(0, 2)).toEqual(['120', '119']);
    expect((await makeDocument(app, caller, finalInvoice())).status).toBe(201);
  });

  it('admits against all buckets or none: a refused preview leaves every counter as it was', async () => {
    await seedWindow('preview:global:day', 86_400_000, 10_000);
    await makeDocument(app, caller, preview());
    const rows = await app.db.select().from(rateLimitWindows).where(like(rateLimitWindows.bucket, 'preview:%'));
    expect(rows.filter((row) => row.bucket !== 'preview:global:day').every((row) => row.count === 0)).toBe(true);
  });
});

describe('RateLimit headers: one bucket, the smallest remaining, a tie to the later reset', () => {
  it('reports the key-hour preview bucket when it has the least left', async () => {
    app.clock.current = Date.parse('2026-11-02T10:20:00Z');
    const response = await makeDocument(app, caller, preview());
    expect(rateHeaders(response)).toEqual(['30', '29', '2400']);
  });

  it('on a tie, reports the bucket that resets later (the day over the hour)', async () => {
    app.clock.current = Date.parse('2026-11-02T10:20:00Z');
    await seedWindow(`preview:key:${caller.keyId}:day`, 86_400_000, 170);
    const response = await makeDocument(app, caller, preview());
    expect(rateHeaders(response)).toEqual(['200', '29', String(13 * 3600 + 40 * 60)]);
  });

  it('never reports the shared ceiling or the failed-sign-in counter, and never a negative remaining', async () => {
    await seedWindow('preview:global:hour', 3_600_000, 1_499);
    const response = await makeDocument(app, caller, preview());
    expect(response.headers.get('RateLimit-Limit')).not.toBe('1500');
    const failed = await app.fetch(new Request(`${BASE}/api/v1/account`, { headers: { Authorization: 'Bearer nope' } }), {
      clientAddress: '198.51.100.1',
    });
    expect(rateHeaders(failed)).toEqual([null, null, null]);
  });

  it('a replay reports the requests bucket only', async () => {
    await makeDocument(app, caller, preview(), { key: 'p-1' });
    const replay = await makeDocument(app, caller, preview(), { key: 'p-1' });
    expect(replay.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(rateHeaders(replay)[0]).toBe('120');
  });
});

describe('replays (replay_limit)', () => {
  it.each([
    ['final per key, 60 a minute', 'final', (c: Caller) => `replay:final:key:${c.keyId}:minute`, 60_000, 60],
    ['final per account, 120 a minute', 'final', (c: Caller) => `replay:final:account:${c.account.id}:minute`, 60_000, 120],
    ['final per account, 600 an hour on free', 'final', (c: Caller) => `replay:final:account:${c.account.id}:hour`, 3_600_000, 600],
    ['preview per key, 30 an hour', 'preview', (c: Caller) => `replay:preview:key:${c.keyId}:hour`, 3_600_000, 30],
    ['preview per key, 200 a day', 'preview', (c: Caller) => `replay:preview:key:${c.keyId}:day`, 86_400_000, 200],
    ['preview per account, 60 an hour', 'preview', (c: Caller) => `replay:preview:account:${c.account.id}:hour`, 3_600_000, 60],
    ['preview per account, 300 a day', 'preview', (c: Caller) => `replay:preview:account:${c.account.id}:day`, 86_400_000, 300],
  ])('%s', async (_, mode, bucket, ms, limit) => {
    const body = { ...finalInvoice(), mode };
    expect((await makeDocument(app, caller, body, { key: 'r-1' })).status).toBe(201);
    await seedWindow(bucket(caller), ms, limit);
    const refused = await makeDocument(app, caller, body, { key: 'r-1' });
    await expectRefusal(refused, 429, 'rate_limited', 'replay_limit');
    expect(Number(refused.headers.get('Retry-After'))).toBeGreaterThan(0);
    expect(rateHeaders(refused).slice(0, 2), 'replay buckets are not reported: the requests bucket is').toEqual(['120', '118']);
    expect(await ledger(app, caller)).toMatchObject({ documents: 1 });
  });
});

describe('a replay with the limiter out of reach', () => {
  it('answers 503 limiter_unavailable for the replay alone, charges nothing, and replays once the limiter is back', async () => {
    let down = false;
    const limiterDownLater = (db: Database) =>
      interceptDb(db, {
        batch: (real) => (queries) =>
          down && countsInWindows(queries, 'replay:') ? Promise.reject(new Error('limiter storage down')) : real(queries),
      });
    const flaky = await createTestApp({ config: { rateLimitsEnabled: true }, wrapDb: limiterDownLater });
    const who = await seedCaller(flaky, { credits: 5 });
    const made = await makeDocument(flaky, who, finalInvoice(), { key: 'r-down' });
    expect(made.status).toBe(201);
    expect((await makeDocument(flaky, who, finalInvoice(), { key: 'r-down' })).status, 'its statements built and run once').toBe(201);
    down = true;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const refused = await makeDocument(flaky, who, finalInvoice(), { key: 'r-down' });
      const body = await expectRefusal(refused, 503, 'service_busy', 'limiter_unavailable');
      expect(JSON.stringify(body)).not.toContain('limiter storage down');
      expect(logged).toHaveBeenCalledTimes(1);
      expect((await makeDocument(flaky, who, finalInvoice(), { key: 'r-new' })).status, 'a new document sends no replay batch').toBe(201);
    } finally {
      logged.mockRestore();
    }
    down = false;
    const replayed = await makeDocument(flaky, who, finalInvoice(), { key: 'r-down' });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('Svc-Idempotent-Replay')).toBe('true');
    expect(replayed.headers.get('Svc-Document-Id')).toBe(made.headers.get('Svc-Document-Id'));
    expect(await ledger(flaky, who)).toMatchObject({ documents: 2, credits: 3 });
  });
});

describe('failed sign-ins per network (20 per 10 minutes)', () => {
  const signIn = (headers: Record<string, string>, address: string) =>
    app.fetch(new Request(`${BASE}/api/v1/account`, { headers }), { clientAddress: address });

  it('answers 429 auth_failure_limit after 20 failures from one network, and still admits a valid key there', async () => {
    app.clock.current = Date.parse('2026-11-02T10:05:00Z');
    for (let i = 0; i < 20; i++) expect((await signIn({ Authorization: `Bearer wrong-${i}` }, '198.51.100.7')).status).toBe(401);
    const blocked = await signIn({}, '198.51.100.7');
    await expectRefusal(blocked, 429, 'rate_limited', 'auth_failure_limit');
    expect(blocked.headers.get('Retry-After')).toBe('300');
    expect((await signIn(caller.headers, '198.51.100.7')).status).toBe(200);
    expect((await signIn({ Authorization: 'Bearer wrong' }, '198.51.100.8')).status).toBe(401);
    app.clock.current = Date.parse('2026-11-02T10:10:00Z');
    expect((await signIn({ Authorization: 'Bearer wrong' }, '198.51.100.7')).status).toBe(401);
  });

  it('counts an IPv6 /64 as one network', async () => {
    for (let i = 0; i < 20; i++) await signIn({}, `2001:db8:1:2::${i + 1}`);
    await expectRefusal(await signIn({}, '2001:db8:1:2:ffff::9'), 429, 'rate_limited', 'auth_failure_limit');
    expect((await signIn({}, '2001:db8:1:3::1')).status).toBe(401);
  });

  it('reads X-Forwarded-For only when the operator trusts a proxy', async () => {
    const forged = (n: number) => new Request(`${BASE}/api/v1/account`, { headers: { 'X-Forwarded-For': `10.0.0.${n}` } });
    for (let i = 0; i < 20; i++) await app.fetch(forged(i), { clientAddress: '192.0.2.50' });
    expect((await app.fetch(forged(99), { clientAddress: '192.0.2.50' })).status).toBe(429);

    const proxied = await createTestApp({ env: { TRUST_X_FORWARDED_FOR: 'true' }, config: { rateLimitsEnabled: true } });
    for (let i = 0; i < 20; i++) await proxied.fetch(forged(7), { clientAddress: '192.0.2.1' });
    expect((await proxied.fetch(forged(7), { clientAddress: '192.0.2.1' })).status).toBe(429);
    expect((await proxied.fetch(forged(8), { clientAddress: '192.0.2.1' })).status).toBe(401);
  });

  it.each([
    ['nine groups around ::', '1:2:3:4:5:6:7:8::1'],
    ['two ::', '1::2::3'],
    ['a mapped IPv4 with five parts', '::ffff:1.2.3.4.5'],
    ['5,001 groups', `${'1:'.repeat(5_000)}1`],
  ])('an X-Forwarded-For that is no address (%s) counts as the network "unknown", never a 500', async (_, address) => {
    const proxied = await createTestApp({ env: { TRUST_X_FORWARDED_FOR: 'true' }, config: { rateLimitsEnabled: true } });
    const request = () => new Request(`${BASE}/api/v1/account`, { headers: { 'X-Forwarded-For': address } });
    for (let i = 0; i < 20; i++) expect((await proxied.fetch(request(), { clientAddress: '192.0.2.1' })).status).toBe(401);
    await expectRefusal(await proxied.fetch(request(), { clientAddress: '192.0.2.1' }), 429, 'rate_limited', 'auth_failure_limit');
    const [row] = await proxied.db.select().from(rateLimitWindows).where(like(rateLimitWindows.bucket, 'auth-failure:%'));
    expect(row!.bucket).toBe('auth-failure:unknown');
  });
});

describe('503 limiter_unavailable', () => {
  it('refuses the request unprocessed when the limiter cannot be reached', async () => {
    const broken = await createTestApp({
      config: { rateLimitsEnabled: true },
      wrapDb: withLimiterDown,
    });
    const who = await seedCaller(broken, { credits: 5 });
    const response = await makeDocument(broken, who, finalInvoice());
    const body = await expectRefusal(response, 503, 'service_busy', 'limiter_unavailable');
    expect(JSON.stringify(body)).not.toContain('limiter storage down');
    expect(response.headers.get('Retry-After')).toBe('5');
    expect(await ledger(broken, who)).toMatchObject({ credits: 5, documents: 0 });
  });
});

describe('the account route reports the limits the limiter enforces', () => {
  it.each(PLAN_NAMES)('%s plan: final_per_minute_key finals are admitted in a minute, not one more', async (plan) => {
    const who = await seedCaller(app, { plan, credits: 1_000 });
    const limits = (await (await account(who)).json()).limits;
    expect(limits.final_per_minute_key).toBe(PLANS[plan].limits.finalPerMinuteKey);
    expect(limits.requests_per_minute_key).toBe(120);
    app.clock.current = MINUTE_START + 60_000 * (1 + PLAN_NAMES.indexOf(plan));
    await seedKeyBucket(app, who.keyId, 'finals', limits.final_per_minute_key - 1);
    expect((await makeDocument(app, who, finalInvoice())).status).toBe(201);
    await expectRefusal(await makeDocument(app, who, finalInvoice()), 429, 'rate_limited', 'final_key_limit');
    expect(await keyBucket(app, who.keyId, 'finals')).toEqual({
      start: app.clock.now() - (app.clock.now() % 60_000),
      count: limits.final_per_minute_key,
    });
  });

  it('an account whose stored plan is no longer in the code is limited as free', async () => {
    const who = await seedCaller(app, { plan: 'pro', credits: 1_000 });
    await app.db.update(accounts).set({ plan: 'retired-2019' }).where(eq(accounts.id, who.account.id));
    expect((await (await account(who)).json()).limits.final_per_minute_key).toBe(PLANS.free.limits.finalPerMinuteKey);
    app.clock.current = MINUTE_START;
    await seedKeyBucket(app, who.keyId, 'finals', PLANS.free.limits.finalPerMinuteKey - 1);
    expect((await makeDocument(app, who, finalInvoice())).status).toBe(201);
    await expectRefusal(await makeDocument(app, who, finalInvoice()), 429, 'rate_limited', 'final_key_limit');
  });
});
