import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/store.ts';
import { generateKey, isWellFormedKey } from '../../src/auth/key-format.ts';
import { createKey, listKeys, regenerateKey, revokeKey } from '../../src/auth/store.ts';
import { accounts, apiKeys } from '../../src/db/schema.ts';
import { addKey, type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';

let app: TestApp;
let caller: Caller;
beforeEach(async () => {
  app = await createTestApp();
  caller = await seedCaller(app);
});

const account = (headers: Record<string, string> = {}, path = '/api/v1/account') => app.call(path, { headers });

async function expectInvalidKey(response: Response) {
  expect(response.status).toBe(401);
  const body = await response.json();
  expect(body.error.code).toBe('unauthorized');
  expect(body.error.message).toBe('The API key is not valid.');
  expect(body.error.details).toEqual([{ code: 'invalid_key', message: 'The API key is not valid.' }]);
  expect(body.credit_used).toBe(false);
}

function flipLastChar(key: string): string {
  return key.slice(0, -1) + (key.endsWith('a') ? 'b' : 'a');
}

describe('401 unauthorized (section 5)', () => {
  it('answers missing_authorization when no header is sent', async () => {
    const response = await account();
    expect(response.status).toBe(401);
    const body = await response.json();
    expect(body.error.details).toEqual([expect.objectContaining({ code: 'missing_authorization' })]);
  });

  it('answers missing_authorization for an empty header too, the same on every runtime', async () => {
    const response = await account({ Authorization: '' });
    expect(response.status).toBe(401);
    expect((await response.json()).error.details[0].code).toBe('missing_authorization');
  });

  it('never reads a key from the URL', async () => {
    const response = await account({}, `/api/v1/account?api_key=${caller.key}&key=${caller.key}`);
    expect(response.status).toBe(401);
    expect((await response.json()).error.details[0].code).toBe('missing_authorization');
  });

  it.each([
    ['a wrong scheme', (key: string) => `Basic ${key}`],
    ['Bearer and nothing', () => 'Bearer '],
    ['a token without scheme', (key: string) => key],
    ['another service secret-key format', () => 'Bearer sk_live_4eC39HqLyjWDarjtT1zdp7dc'],
    ['a key with a mistyped character', (key: string) => `Bearer ${flipLastChar(key)}`],
    ['a key cut short', (key: string) => `Bearer ${key.slice(0, -2)}`],
    ['a key in upper case', (key: string) => `Bearer ${key.toUpperCase()}`],
    ['two tokens', (key: string) => `Bearer ${key} ${key}`],
    ['a well-formed key that was never issued', () => `Bearer ${generateKey()}`],
  ])('answers invalid_key, always the same, for %s', async (_, header) => {
    await expectInvalidKey(await account({ Authorization: header(caller.key) }));
  });

  it('answers invalid_key for two Authorization headers, even both with the valid key (test/smoke/hostile.test.ts sends them apart)', async () => {
    const headers = new Headers();
    headers.append('Authorization', `Bearer ${caller.key}`);
    headers.append('Authorization', `Bearer ${caller.key}`);
    await expectInvalidKey(await app.call('/api/v1/account', { headers }));
  });

  it('accepts the scheme name in any case', async () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      expect((await account({ Authorization: `${scheme} ${caller.key}` })).status).toBe(200);
    }
  });

  it('refuses a revoked key from the very next request', async () => {
    expect((await account(caller.headers)).status).toBe(200);
    await revokeKey(app.db, caller.keyId, app.clock.now());
    await expectInvalidKey(await account(caller.headers));
  });

  it('regenerate: the old secret stops, the new one works with the same name and scopes', async () => {
    const regenerated = await regenerateKey(app.db, caller.keyId, app.clock.now());
    expect(regenerated).toBeDefined();
    await expectInvalidKey(await account(caller.headers));
    const body = await (await account({ Authorization: `Bearer ${regenerated!.key}` })).json();
    expect(body.key).toMatchObject({ id: regenerated!.id, name: 'full key' });
    expect(await regenerateKey(app.db, caller.keyId, app.clock.now())).toBeUndefined();
  });
});

describe('no CORS on routes that take a key', () => {
  it.each([
    ['GET', true],
    ['GET', false],
    ['OPTIONS', false],
  ])('%s /api/v1/account (with key: %s) sends no Access-Control header', async (method, withKey) => {
    const response = await app.call('/api/v1/account', {
      method,
      headers: { Origin: 'https://app.example', ...(withKey ? caller.headers : {}) },
    });
    if (method === 'OPTIONS') {
      expect(response.status).toBe(405);
      expect(response.headers.get('Allow')).toBe('GET');
    }
    for (const name of response.headers.keys()) expect(name.startsWith('access-control-')).toBe(false);
  });
});

describe('keys', () => {
  it('stores only a hash and a display prefix, never the secret', async () => {
    const rows = await app.db.select().from(apiKeys).where(eq(apiKeys.accountId, caller.account.id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(caller.key);
    expect(JSON.stringify(rows)).not.toContain(caller.key.slice(13));
    expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('recognises its own format and nothing else', () => {
    const key = generateKey();
    expect(key).toMatch(/^svc_live_[0-9a-z]{39}$/);
    expect(isWellFormedKey(key)).toBe(true);
    expect(isWellFormedKey(flipLastChar(key))).toBe(false);
    expect(isWellFormedKey(key.replace('svc_live_', 'svc_test_'))).toBe(false);
    expect(isWellFormedKey(`sk_live_${key.slice(9)}`)).toBe(false);
  });

  it('allows at most 3 active keys, atomically: three concurrent creations on two keys leave three', async () => {
    await addKey(app, caller.account.id);
    const results = await Promise.all(
      [1, 2, 3].map(() => createKey(app.db, { accountId: caller.account.id, kind: 'full', name: 'x', now: app.clock.now() })),
    );
    expect(results.filter((r) => typeof r === 'object')).toHaveLength(1);
    expect(results.filter((r) => r === 'too_many_keys')).toHaveLength(2);
    const active = (await listKeys(app.db, caller.account.id)).filter((k) => k.revokedAt === null);
    expect(active).toHaveLength(3);
  });

  it('frees a place when a key is revoked', async () => {
    await addKey(app, caller.account.id);
    await addKey(app, caller.account.id);
    expect(await createKey(app.db, { accountId: caller.account.id, kind: 'full', name: 'x', now: 0 })).toBe('too_many_keys');
    await revokeKey(app.db, caller.keyId, app.clock.now());
    expect(typeof (await createKey(app.db, { accountId: caller.account.id, kind: 'preview', name: 'x', now: 0 }))).toBe('object');
  });

  it('creates no key until the email address is confirmed', async () => {
    const unconfirmed = (await createAccount(app.db, { email: 'new@example.com', plan: 'free', emailConfirmed: false, now: 0 }))!;
    expect(await createKey(app.db, { accountId: unconfirmed.id, kind: 'full', name: 'x', now: 0 })).toBe('email_not_confirmed');
    await app.db.update(accounts).set({ emailConfirmed: true }).where(eq(accounts.id, unconfirmed.id));
    expect(typeof (await createKey(app.db, { accountId: unconfirmed.id, kind: 'full', name: 'x', now: 0 }))).toBe('object');
  });
});
