import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findAccount } from '../../src/accounts/store.ts';
import { listKeys } from '../../src/auth/store.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { DatabaseBusy } from '../../src/db/failures.ts';
import { apiKeys, rateLimitWindows, sessions } from '../../src/db/schema.ts';
import { sha256Hex } from '../../src/hash.ts';
import { COMMANDS } from '../../src/operator/commands.ts';
import { seedCaller } from '../support/accounts.ts';
import { BASE, createTestApp, interceptDb, type TestApp } from '../support/app.ts';

const SECRET = 'op-secret-0123456789-abcdefghijklmnopqrstuv';
const PATH = '/operator/v1/commands';
const CLIENT = { clientAddress: '198.51.100.7' };

function operatorApp(options: Parameters<typeof createTestApp>[0] = {}) {
  return createTestApp({ ...options, env: { OPERATOR_SECRET: SECRET, ...options.env } });
}

function post(app: TestApp, body: unknown, init: { secret?: string | null; authorization?: string; address?: string } = {}) {
  const authorization = init.authorization ?? (init.secret === null ? undefined : `Bearer ${init.secret ?? SECRET}`);
  return app.fetch(
    new Request(`${BASE}${PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(authorization === undefined ? {} : { Authorization: authorization }) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    { clientAddress: init.address ?? CLIENT.clientAddress },
  );
}

/** Runs a command through the operator API and returns its JSON, failing the test on anything but 200. */
async function run(app: TestApp, command: string, positionals: string[] = [], options: Record<string, string | boolean> = {}) {
  const response = await post(app, { command, positionals, options });
  const text = await response.text();
  expect(response.status, `${command}: ${text}`).toBe(200);
  expect(response.headers.get('Cache-Control')).toBe('no-store');
  return JSON.parse(text);
}

/** Runs a command that must be refused: 400 invalid_request, and the refusal's message. */
async function refusal(app: TestApp, body: unknown): Promise<string> {
  const response = await post(app, body);
  const answer = await response.json();
  expect(response.status, JSON.stringify(answer)).toBe(400);
  expect(answer.error.code).toBe('invalid_request');
  expect(response.headers.get('Cache-Control')).toBe('no-store');
  return answer.error.message;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('operator API: who gets in', () => {
  it('does not exist without OPERATOR_SECRET: every /operator path answers like an unknown path, whatever the method', async () => {
    const app = await createTestApp();
    const unknown = await app.call('/no/such/path', { method: 'POST' });
    const expected = await unknown.json();
    for (const [path, method] of [
      [PATH, 'POST'],
      [PATH, 'GET'],
      [PATH, 'DELETE'],
      ['/operator/v1/other', 'POST'],
    ] as const) {
      const response = await app.call(path, { method, headers: { Authorization: `Bearer ${SECRET}`, 'Content-Type': 'application/json' } });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.headers.get('Allow')).toBeNull();
      const body = await response.json();
      expect({ ...body, error: { ...body.error, request_id: '' } }).toEqual({ ...expected, error: { ...expected.error, request_id: '' } });
    }
  });

  it('refuses a missing, malformed or wrong secret with one 401, takes the right one, and never caches or opens CORS', async () => {
    const app = await operatorApp();
    const wrongSameLength = `${SECRET.slice(0, -1)}x`;
    for (const init of [
      { secret: null },
      { authorization: '' },
      { authorization: SECRET },
      { authorization: `Basic ${SECRET}` },
      { secret: wrongSameLength },
      { secret: SECRET.slice(0, 32) },
      { secret: `${SECRET}${SECRET}` },
      { secret: 'short' },
    ]) {
      const response = await post(app, { command: 'purge' }, init);
      const text = await response.text();
      expect(response.status, JSON.stringify(init)).toBe(401);
      expect(JSON.parse(text).error.code).toBe('unauthorized');
      expect(text).not.toContain(SECRET.slice(0, 16));
      expect(response.headers.get('Cache-Control')).toBe('no-store');
      expect(response.headers.get('Access-Control-Allow-Origin')).toBeNull();
    }
    const accepted = await post(app, { command: 'purge' }, { authorization: `bearer  ${SECRET} ` });
    expect(accepted.status).toBe(200);
    expect(accepted.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(accepted.headers.get('Cache-Control')).toBe('no-store');
    const preflight = await app.call(PATH, { method: 'OPTIONS', headers: { Origin: 'https://elsewhere.example' } });
    expect(preflight.status).toBe(405);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });

  it('does not take an API key in place of the secret', async () => {
    const app = await operatorApp();
    const caller = await seedCaller(app);
    expect((await post(app, { command: 'purge' }, { secret: caller.key })).status).toBe(401);
  });

  it('counts failures per network with the failed sign-ins of the API: 429 with Retry-After past the limit, never for the right secret', async () => {
    const app = await operatorApp({ config: { rateLimitsEnabled: true } });
    // The API's failed sign-ins and the operator's share one window per network.
    for (let i = 0; i < 10; i++) {
      const response = await app.fetch(
        new Request(`${BASE}/api/v1/account`, { headers: { Authorization: 'Bearer svc_live_nope' } }),
        CLIENT,
      );
      expect(response.status).toBe(401);
    }
    for (let i = 0; i < 10; i++) expect((await post(app, { command: 'purge' }, { secret: `wrong-${i}` })).status).toBe(401);
    const limited = await post(app, { command: 'purge' }, { secret: 'wrong-again' });
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.details[0].code).toBe('auth_failure_limit');
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    const apiLimited = await app.fetch(
      new Request(`${BASE}/api/v1/account`, { headers: { Authorization: 'Bearer svc_live_nope' } }),
      CLIENT,
    );
    expect(apiLimited.status).toBe(429);

    expect((await post(app, { command: 'purge' })).status).toBe(200);
    expect((await post(app, { command: 'purge' }, { secret: 'wrong', address: '203.0.113.9' })).status).toBe(401);
    const windows = await app.db.select().from(rateLimitWindows).where(eq(rateLimitWindows.bucket, 'auth-failure:198.51.100.7'));
    expect(windows.map((row) => row.count)).toEqual([20]);

    app.clock.advance(10 * 60_000);
    expect((await post(app, { command: 'purge' }, { secret: 'wrong' })).status).toBe(401);
  });

  it('never puts the secret in an answer or a log line', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const app = await operatorApp({ config: { logRequests: true, rateLimitsEnabled: true } });
    const answers: string[] = [];
    for (const init of [{}, { secret: `${SECRET}x` }, { secret: null }]) {
      for (const body of [{ command: 'accounts list' }, { command: 'accounts show', positionals: ['acct_missing'] }, '{bad']) {
        answers.push(await (await post(app, body, init)).text());
      }
    }
    const logged = [...log.mock.calls, ...error.mock.calls, ...warn.mock.calls].flat().map(String);
    expect(logged.length).toBeGreaterThan(0);
    for (const text of [...answers, ...logged]) {
      expect(text).not.toContain(SECRET.slice(0, 12));
      expect(text).not.toContain(sha256Hex(SECRET));
    }
  });

  it('is not in the OpenAPI document nor on the API page', async () => {
    const app = await operatorApp();
    const document = await (await app.call('/api/v1/openapi.json')).text();
    expect(document).not.toContain('/operator');
    expect(document).not.toContain('runOperatorCommand');
    expect(await (await app.call('/docs/api')).text()).not.toContain('/operator');
  });

  it('takes a secret of at least 32 visible characters and never names it in a configuration error', () => {
    expect(loadConfig({}).operatorSecretDigest).toBeUndefined();
    expect(loadConfig({ OPERATOR_SECRET: '  ' }).operatorSecretDigest).toBeUndefined();
    expect(loadConfig({ OPERATOR_SECRET: SECRET }).operatorSecretDigest).toBe(sha256Hex(SECRET));
    for (const bad of ['too-short-secret-1234567890', `${SECRET.slice(0, 20)} ${SECRET.slice(20)}`, `${SECRET}é`]) {
      let thrown: unknown;
      try {
        loadConfig({ OPERATOR_SECRET: bad });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toContain('OPERATOR_SECRET must be at least 32');
      expect((thrown as Error).message).not.toContain(bad.slice(0, 10));
    }
  });
});

describe('operator API: the commands', () => {
  it('runs every command of the CLI, answering what the CLI prints, and changes the database', async () => {
    const app = await operatorApp();
    const ran = new Set<string>();
    const call = async (command: string, positionals: string[] = [], options: Record<string, string | boolean> = {}) => {
      ran.add(command);
      return run(app, command, positionals, options);
    };

    const account = await call('accounts create', [], { email: 'Ops@Example.com', plan: 'starter', credits: '12', unconfirmed: true });
    expect(account).toMatchObject({ email: 'Ops@Example.com', plan: 'starter', credits_remaining: 12, email_confirmed: false });
    expect(await findAccount(app.db, account.id)).toMatchObject({ creditsRemaining: 12, emailConfirmed: false });

    expect(await call('accounts confirm-email', [account.id])).toMatchObject({ email_confirmed: true });
    expect((await findAccount(app.db, account.id))?.emailConfirmed).toBe(true);
    expect(await call('accounts find', [], { email: 'ops@example.COM' })).toEqual({ ...account, email_confirmed: true });
    expect(await call('accounts set-plan', [account.id], { plan: 'pro' })).toMatchObject({ plan: 'pro' });
    expect(await call('credits add', [], { account: account.id, credits: '5' })).toMatchObject({ credits_remaining: 17 });
    expect(await call('credits set', [], { account: account.id, remaining: '40' })).toMatchObject({ credits_remaining: 40 });
    expect(await findAccount(app.db, account.id)).toMatchObject({ plan: 'pro', creditsRemaining: 40 });
    const shown = await call('accounts show', [account.id]);
    expect(shown).toEqual(
      await COMMANDS['accounts show']!.run({ positionals: [account.id], options: {} }, { db: app.db, now: app.clock.now() }),
    );
    const listed = await call('accounts list', [], { limit: '100' });
    expect(listed).toEqual({ object: 'list', data: [shown], has_more: false });

    const key = await call('keys create', [], { account: account.id, kind: 'full', name: 'deploy' });
    expect(Object.keys(key)).toEqual(['id', 'key', 'prefix', 'name', 'scopes']);
    const stored = await app.db.select().from(apiKeys).where(eq(apiKeys.accountId, account.id));
    expect(JSON.stringify(stored)).not.toContain(key.key);
    const made = await app.call('/api/v1/account', { headers: { Authorization: `Bearer ${key.key}` } });
    expect(made.status).toBe(200);

    const keys = await call('keys list', [], { account: account.id });
    expect(keys.data.map((listedKey: { id: string }) => listedKey.id)).toEqual([key.id]);
    expect(JSON.stringify(keys)).not.toContain(key.key);
    const regenerated = await call('keys regenerate', [key.id]);
    expect(regenerated.key).not.toBe(key.key);
    expect((await app.call('/api/v1/account', { headers: { Authorization: `Bearer ${key.key}` } })).status).toBe(401);
    expect(await call('keys revoke', [regenerated.id])).toMatchObject({ id: regenerated.id, revoked_at: expect.any(String) });
    expect((await listKeys(app.db, account.id)).every((row) => row.revokedAt !== null)).toBe(true);
    expect((await app.call('/api/v1/account', { headers: { Authorization: `Bearer ${regenerated.key}` } })).status).toBe(401);

    const holder = await app.db
      .insert(sessions)
      .values([1, 2].map((n) => ({ tokenHash: `session-${n}`, accountId: account.id, createdAt: 0, expiresAt: app.clock.now() + 60_000 })))
      .returning();
    expect(holder).toHaveLength(2);
    expect(await call('sessions end', [], { account: account.id })).toEqual({ object: 'sessions_ended', account: account.id, sessions: 2 });
    expect(await app.db.select().from(sessions).where(eq(sessions.accountId, account.id))).toEqual([]);

    expect(await call('purge')).toEqual({
      object: 'purge',
      deleted: { documents: 0, idempotency_keys: 0, rate_limit_windows: 0, sessions: 0, sign_in_links: 0, email_changes: 0 },
    });
    expect([...ran].sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it('refuses what the CLI refuses with 400 and the CLI message, and a malformed request with 400, never a 500', async () => {
    const app = await operatorApp();
    const account = await run(app, 'accounts create', [], { email: 'taken@example.com', unconfirmed: true });
    const cases: [unknown, string][] = [
      [{ command: 'sessions end', options: { account: 'acct_none' } }, 'No account acct_none.'],
      [{ command: 'accounts create', options: { email: 'nul\u0000@example.com' } }, 'is not an email address'],
      [{ command: 'accounts create', options: { email: 'ada@localhost' } }, 'is not an email address'],
      [{ command: 'accounts create', options: { email: 'TAKEN@example.com' } }, 'already exists'],
      [{ command: 'accounts create', options: { email: 'not-an-email' } }, '"not-an-email" is not an email address.'],
      [{ command: 'accounts create', options: { email: 'a@b.co', plan: 'gold' } }, '--plan must be one of free, starter, pro.'],
      [{ command: 'keys create', options: { account: account.id, kind: 'full' } }, 'is not confirmed'],
      [{ command: 'keys create', options: { account: account.id, kind: 'admin' } }, '--kind must be full or preview.'],
      [{ command: 'keys revoke', positionals: ['key_missing'] }, 'No active key key_missing.'],
      [{ command: 'accounts show', positionals: [] }, 'Give exactly one account id.'],
      [{ command: 'credits add', options: { account: 'acct_missing', credits: '5' } }, 'No account acct_missing.'],
      [{ command: 'credits set', options: { account: account.id, remaining: '-1' } }, '--remaining must be a whole number'],
      [{ command: 'accounts list', options: { limit: '0' } }, '--limit must be from 1 to 100.'],
      [{ command: 'accounts find', options: { email: 'nobody@example.com' } }, 'No account with the email address'],
      [{ command: 'nothing here' }, 'Unknown command "nothing here".'],
      [{ command: 'constructor' }, 'Unknown command "constructor".'],
      [{ command: 42 }, '"command" must be a command name'],
      [{}, '"command" must be a command name'],
      [[], 'Send a JSON object'],
      [{ command: 'purge', extra: true }, 'Unknown member "extra"'],
      [{ command: 'purge', positionals: [1] }, '"positionals" must be an array of strings.'],
      [{ command: 'purge', options: [] }, '"options" must be an object'],
      [{ command: 'accounts create', options: { email: 'a@b.co', bogus: 'x' } }, "Unknown option '--bogus'"],
      ['{"command": "accounts create", "options": {"email": "a@b.co", "__proto__": "x"}}', "Unknown option '--__proto__'"],
      [{ command: 'accounts create', options: { email: 5 } }, "Option '--email' takes a string."],
      [{ command: 'accounts create', options: { email: 'a@b.co', unconfirmed: 'yes' } }, "Option '--unconfirmed' is true or false."],
      ['{"command": "purge",', 'not valid JSON'],
      ['{"command": "purge", "command": "purge"}', 'not valid JSON'],
    ];
    for (const [body, message] of cases) {
      expect(await refusal(app, typeof body === 'string' ? body : JSON.stringify(body)), JSON.stringify(body)).toContain(message);
    }
    expect((await findAccount(app.db, account.id))?.creditsRemaining).toBe(account.credits_remaining);
  });

  it('answers 503 with what to do when the database is busy, and nothing else about it', async () => {
    const app = await operatorApp({
      wrapDb: (db) =>
        interceptDb(db, {
          select: () => () => {
            throw new DatabaseBusy(2_000);
          },
        }),
    });
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await post(app, { command: 'accounts show', positionals: ['acct_x'] });
    expect(response.status).toBe(503);
    expect(response.headers.get('Retry-After')).toBe('2');
    expect((await response.json()).error.message).toBe('the database is busy or cannot be reached; nothing was changed. Try again.');
    expect(error.mock.calls.flat().join('\n')).toContain('accounts show: DatabaseBusy');
  });
});
