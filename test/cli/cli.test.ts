import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@libsql/client';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/libsql.ts';
import { ROOT, tempDir } from '../support/processes.ts';
import { FILLER_TABLE, fillerPages, walIndex } from '../support/wal-index.ts';

const run = promisify(execFile);
let databaseUrl: string;

beforeAll(() => {
  databaseUrl = `file:${join(tempDir('svc-cli-'), 'svc.db')}`;
});

/** Runs the real CLI as a process; resolves with exit code, stdout and stderr. */
async function svc(...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['src/cli/index.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function svcJson(...args: string[]) {
  const result = await svc(...args);
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

/** Each case starts the CLI several times, a Node process each: slow on a loaded machine, hence the long timeout. */
describe('operator CLI', { timeout: 90_000 }, () => {
  it('creates an account, refuses a key until the email is confirmed, then issues one', async () => {
    const account = await svcJson(
      'accounts',
      'create',
      '--email',
      'ops@example.com',
      '--plan',
      'starter',
      '--credits',
      '12',
      '--unconfirmed',
    );
    expect(Object.keys(account)).toEqual(['id', 'email', 'plan', 'credits_remaining', 'period_end', 'email_confirmed']);
    expect(account).toMatchObject({ email: 'ops@example.com', plan: 'starter', credits_remaining: 12, email_confirmed: false });
    expect(account.period_end).toMatch(/^\d{4}-\d{2}-01T00:00:00Z$/);

    const refused = await svc('keys', 'create', '--account', account.id, '--kind', 'full');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/not confirmed/);

    expect(await svcJson('accounts', 'confirm-email', account.id)).toMatchObject({ email_confirmed: true });
    const key = await svcJson('keys', 'create', '--account', account.id, '--kind', 'preview', '--name', 'CI');
    expect(Object.keys(key)).toEqual(['id', 'key', 'prefix', 'name', 'scopes']);
    expect(key).toMatchObject({ name: 'CI', scopes: ['documents:preview', 'documents:read', 'account:read'] });
    expect(key.key.startsWith(key.prefix)).toBe(true);

    const listed = await svcJson('keys', 'list', '--account', account.id);
    expect(listed.data).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(key.key);

    const regenerated = await svcJson('keys', 'regenerate', key.id);
    expect(regenerated.id).not.toBe(key.id);
    expect(regenerated.key).not.toBe(key.key);
    expect(regenerated.name).toBe('CI');
    const revoked = await svcJson('keys', 'revoke', regenerated.id);
    expect(revoked.revoked_at).not.toBeNull();
    expect((await svc('keys', 'revoke', regenerated.id)).code).toBe(1);

    expect(await svcJson('credits', 'set', '--account', account.id, '--remaining', '99')).toMatchObject({ credits_remaining: 99 });
    expect(await svcJson('accounts', 'show', account.id)).toMatchObject({ id: account.id, credits_remaining: 99 });
  });

  it('keeps one account per email address whatever its letter case, also when several processes create it at once', async () => {
    await svcJson('accounts', 'create', '--email', 'Same@Example.com');
    const again = await svc('accounts', 'create', '--email', 'same@example.COM');
    expect(again.code).toBe(1);
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('already exists');
    const racing = await Promise.all([1, 2, 3].map(() => svc('accounts', 'create', '--email', 'race.account@example.com')));
    expect(racing.filter((r) => r.code === 0)).toHaveLength(1);
    const client = createClient({ url: databaseUrl });
    const rows = await client.execute(
      "SELECT lower(email) AS email, COUNT(*) AS n FROM accounts WHERE lower(email) IN ('same@example.com', 'race.account@example.com') GROUP BY lower(email)",
    );
    client.close();
    expect(rows.rows.map((row) => [row.email, Number(row.n)])).toEqual([
      ['race.account@example.com', 1],
      ['same@example.com', 1],
    ]);
  });

  it('lists and finds accounts, changes a plan, and adds credits that all count when granted at once', async () => {
    const account = await svcJson('accounts', 'create', '--email', 'Daily@Example.com', '--credits', '10');
    const all = await svcJson('accounts', 'list', '--limit', '100');
    expect(all).toMatchObject({ object: 'list', has_more: false });
    const ids = all.data.map((listed: { id: string }) => listed.id);
    expect(ids).toContain(account.id);
    const firstTwo = await svcJson('accounts', 'list', '--limit', '2');
    expect(firstTwo.data.map((listed: { id: string }) => listed.id)).toEqual(ids.slice(0, 2));
    expect(firstTwo.has_more).toBe(ids.length > 2);
    const next = await svcJson('accounts', 'list', '--limit', '1', '--after', ids[0]);
    expect(next.data.map((listed: { id: string }) => listed.id)).toEqual(ids.slice(1, 2));

    expect(await svcJson('accounts', 'find', '--email', 'daily@example.COM')).toEqual(account);
    expect(await svcJson('accounts', 'set-plan', account.id, '--plan', 'pro')).toMatchObject({
      id: account.id,
      plan: 'pro',
      credits_remaining: 10,
    });
    const grants = await Promise.all([1, 2, 3].map(() => svc('credits', 'add', '--account', account.id, '--credits', '5')));
    expect(grants.map((grant) => grant.code)).toEqual([0, 0, 0]);
    const client = createClient({ url: databaseUrl });
    const stored = await client.execute({ sql: 'SELECT plan, credits_remaining FROM accounts WHERE id = ?', args: [account.id] });
    client.close();
    expect(stored.rows.map((row) => [row.plan, Number(row.credits_remaining)])).toEqual([['pro', 25]]);

    for (const [args, message] of [
      [['accounts', 'find', '--email', 'nobody@example.com'], 'No account with the email address'],
      [['accounts', 'set-plan', account.id, '--plan', 'gold'], '--plan must be one of free, starter, pro'],
      [['credits', 'add', '--account', 'acct_missing', '--credits', '5'], 'No account acct_missing'],
      [['accounts', 'list', '--limit', '0'], '--limit must be from 1 to 100'],
    ] as const) {
      const refused = await svc(...args);
      expect(refused.code, args.join(' ')).toBe(1);
      expect(refused.stderr).toContain(message);
    }
  });

  it('stores the key only as a hash in the database file', async () => {
    const account = await svcJson('accounts', 'create', '--email', 'hash@example.com');
    const key = await svcJson('keys', 'create', '--account', account.id, '--kind', 'full');
    const client = createClient({ url: databaseUrl });
    const rows = await client.execute('SELECT * FROM api_keys');
    client.close();
    expect(JSON.stringify(rows.rows)).not.toContain(key.key);
  });

  it('keeps the 3-key limit when three processes create keys at once on an account with two', async () => {
    const account = await svcJson('accounts', 'create', '--email', 'race@example.com');
    await svcJson('keys', 'create', '--account', account.id, '--kind', 'full');
    await svcJson('keys', 'create', '--account', account.id, '--kind', 'full');
    const results = await Promise.all([1, 2, 3].map(() => svc('keys', 'create', '--account', account.id, '--kind', 'full')));
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    const listed = await svcJson('keys', 'list', '--account', account.id);
    expect(listed.data.filter((k: { revoked_at: string | null }) => k.revoked_at === null)).toHaveLength(3);
  });

  it('purges what retention no longer keeps and says how much', async () => {
    const result = await svcJson('purge');
    expect(result).toEqual({
      object: 'purge',
      deleted: { documents: 0, idempotency_keys: 0, rate_limit_windows: 0, sessions: 0, sign_in_links: 0, email_changes: 0 },
    });
  });

  it('explains itself and refuses bad input with a message and exit code 1', async () => {
    const help = await svc('keys', 'create', '--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('keys create --account ACCOUNT_ID --kind full|preview');
    const overview = await svc('--help');
    expect(overview.stdout).toContain('accounts create');
    expect(overview.stdout).toContain('--url BASE_URL');
    expect(overview.stdout).toContain('SVC_OPERATOR_SECRET');
    expect(help.stdout).toContain('SVC_OPERATOR_URL');
    for (const args of [
      ['nothing', 'here'],
      ['accounts', 'create', '--email', 'not-an-email'],
      ['accounts', 'create', '--email', 'a@b.co', '--plan', 'gold'],
      ['accounts', 'create', '--email', 'a@b.co', '--bogus'],
      ['keys', 'create', '--account', 'acct_missing', '--kind', 'full'],
      ['keys', 'create', '--account', 'acct_missing', '--kind', 'admin'],
      ['credits', 'set', '--account', 'acct_missing', '--remaining', '-1'],
    ]) {
      const result = await svc(...args);
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/^svc: /);
    }
  });
});

describe('the CLI beside a server on one file', { timeout: 90_000 }, () => {
  it("never checkpoints the file in its commits (its SQLite lacks the WAL-reset fix; the servers' checkpoints serve)", async () => {
    const path = join(tempDir('svc-cli-wal-'), 'svc.db');
    const { client } = await openDatabase(`file:${path}`);
    // Another connection stays open throughout, as a server's would, and makes the WAL longer than SQLite's
    // default checkpoint (1,000 frames) without checkpointing it itself.
    await client.execute('PRAGMA wal_autocheckpoint = 0');
    await client.execute(FILLER_TABLE);
    for (let batch = 0; batch < 30; batch++) await client.batch([fillerPages(50)]);
    expect(walIndex(path).frames).toBeGreaterThan(1_000);
    const result = await run(process.execPath, ['src/cli/index.ts', 'accounts', 'create', '--email', 'wal@example.com', '--plan', 'free'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `file:${path}` },
    });
    expect(JSON.parse(result.stdout)).toMatchObject({ email: 'wal@example.com' });
    expect(walIndex(path).copied).toBe(0);
    client.close();
  });
});
