import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { beforeEach, describe, expect, it } from 'vitest';
import { PLAN_NAMES, PLANS } from '../../src/accounts/plans.ts';
import { findAccount, renewPeriodIfEnded, setCredits } from '../../src/accounts/store.ts';
import { accounts, apiKeys } from '../../src/db/schema.ts';
import { AccountSchema } from '../../src/openapi/schemas.ts';
import { seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
beforeEach(async () => {
  app = await createTestApp();
});

describe('GET /api/v1/account', () => {
  it('returns every member of the Account object (2.8)', async () => {
    const caller = await seedCaller(app, { plan: 'starter', credits: 321 });
    const response = await app.call('/api/v1/account', { headers: caller.headers });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(v.safeParse(AccountSchema, body).issues).toBeUndefined();
    expect(body).toEqual({
      object: 'account',
      plan: 'starter',
      credits: { remaining: 321, monthly_allowance: 1000, period_end: '2026-12-01T00:00:00Z' },
      key: {
        id: caller.keyId,
        name: 'full key',
        prefix: caller.key.slice(0, 13),
        scopes: ['documents:create', 'documents:preview', 'documents:read', 'account:read'],
        created_at: '2026-11-02T10:00:00Z',
        last_used_at: '2026-11-02T10:00:00Z',
      },
      limits: {
        final_per_minute_key: 60,
        requests_per_minute_key: 120,
        preview_per_hour_key: 30,
        preview_per_day_key: 200,
        preview_per_hour_account: 60,
        preview_per_day_account: 300,
      },
    });
    expect(body.key.prefix).toMatch(/^svc_live_[0-9a-z]{4}$/);
    expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it.each(PLAN_NAMES)('reports the %s plan allowance and the limits enforced for it', async (plan) => {
    const caller = await seedCaller(app, { plan });
    const body = await (await app.call('/api/v1/account', { headers: caller.headers })).json();
    expect(body.credits.monthly_allowance).toBe(PLANS[plan].monthlyAllowance);
    expect(body.credits.remaining).toBe(PLANS[plan].monthlyAllowance);
    expect(body.limits.final_per_minute_key).toBe(PLANS[plan].limits.finalPerMinuteKey);
  });

  it('works with a Preview only key, which has account:read', async () => {
    const caller = await seedCaller(app, { kind: 'preview' });
    const body = await (await app.call('/api/v1/account', { headers: caller.headers })).json();
    expect(body.key.scopes).toEqual(['documents:preview', 'documents:read', 'account:read']);
  });

  it('writes last_used_at at most once a minute per key', async () => {
    const caller = await seedCaller(app);
    const lastUsed = async () => (await app.db.select().from(apiKeys).where(eq(apiKeys.id, caller.keyId)))[0]!.lastUsedAt;
    await app.call('/api/v1/account', { headers: caller.headers });
    const first = await lastUsed();
    app.clock.advance(59_000);
    await app.call('/api/v1/account', { headers: caller.headers });
    expect(await lastUsed()).toBe(first);
    app.clock.advance(1_000);
    const body = await (await app.call('/api/v1/account', { headers: caller.headers })).json();
    expect(await lastUsed()).toBe(first! + 60_000);
    expect(body.key.last_used_at).toBe('2026-11-02T10:01:00Z');
  });
});

describe('credit periods', () => {
  it('renews an ended period on the next request that touches credits', async () => {
    const caller = await seedCaller(app, { plan: 'free', credits: 3 });
    app.clock.current = Date.parse('2026-12-01T00:00:00Z');
    const body = await (await app.call('/api/v1/account', { headers: caller.headers })).json();
    expect(body.credits).toEqual({ remaining: 50, monthly_allowance: 50, period_end: '2027-01-01T00:00:00Z' });
    const [row] = await app.db.select().from(accounts).where(eq(accounts.id, caller.account.id));
    expect(row).toMatchObject({ creditsRemaining: 50, periodEnd: Date.parse('2027-01-01T00:00:00Z') });
  });

  it('moves a long-idle account to the end of the current month, not one month on', async () => {
    const caller = await seedCaller(app, { plan: 'pro', credits: 0 });
    app.clock.current = Date.parse('2027-03-15T12:00:00Z');
    const body = await (await app.call('/api/v1/account', { headers: caller.headers })).json();
    expect(body.credits).toMatchObject({ remaining: 10_000, period_end: '2027-04-01T00:00:00Z' });
  });

  it('renews once under concurrency: twenty requests in parallel leave one renewal', async () => {
    const caller = await seedCaller(app, { plan: 'free', credits: 2 });
    app.clock.current = Date.parse('2026-12-01T00:00:05Z');
    const responses = await Promise.all(Array.from({ length: 20 }, () => app.call('/api/v1/account', { headers: caller.headers })));
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const row = await findAccount(app.db, caller.account.id);
    expect(row).toMatchObject({ creditsRemaining: 50, periodEnd: Date.parse('2027-01-01T00:00:00Z') });
  });

  it('a late renewal from a stale read changes nothing once the period has moved on', async () => {
    const caller = await seedCaller(app, { plan: 'free', credits: 2 });
    const now = Date.parse('2026-12-01T00:00:05Z');
    const stale = caller.account;
    await renewPeriodIfEnded(app.db, stale, now);
    await setCredits(app.db, stale.id, 7);
    await Promise.all(Array.from({ length: 10 }, () => renewPeriodIfEnded(app.db, stale, now + 1)));
    expect(await findAccount(app.db, stale.id)).toMatchObject({ creditsRemaining: 7 });
  });
});
