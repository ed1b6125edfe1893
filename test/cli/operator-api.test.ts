import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ROOT, type RunningServer, startBun, startWorker, tempDir, wrangler } from '../support/processes.ts';
import { fixtureText } from '../support/requests.ts';

const run = promisify(execFile);
const SECRET = 'cli-operator-secret-0123456789-abcdefghijklmnop';
/** The local database the CLI would open without --url: it must stay untouched when a URL is given. */
const localDatabase = join(tempDir('svc-cli-local-'), 'never-opened.db');

let worker: RunningServer;
let d1Folder: string;
let bun: RunningServer;
let bunDatabaseUrl: string;
let bunWithoutSecret: RunningServer;

beforeAll(async () => {
  d1Folder = tempDir('svc-d1-operator-');
  bunDatabaseUrl = `file:${join(tempDir('svc-bun-operator-'), 'svc.db')}`;
  [worker, bun, bunWithoutSecret] = await Promise.all([
    (async () => startWorker(await freePort(), undefined, { persist: d1Folder, vars: { OPERATOR_SECRET: SECRET } }))(),
    (async () => startBun({ DATABASE_URL: bunDatabaseUrl, OPERATOR_SECRET: SECRET, LOG_REQUESTS: 'true' }, await freePort()))(),
    (async () => startBun({ DATABASE_URL: `file:${join(tempDir('svc-bun-plain-'), 'svc.db')}` }, await freePort()))(),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([worker, bun, bunWithoutSecret].map((server) => server?.stop()));
});

/** Runs the real CLI as a process with the operator secret in its environment (unless `env` says otherwise). */
async function svc(args: string[], env: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['src/cli/index.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: `file:${localDatabase}`, SVC_OPERATOR_SECRET: SECRET, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function svcJson(args: string[], env: Record<string, string> = {}) {
  const result = await svc(args, env);
  expect(result.code, result.stderr).toBe(0);
  const lines = result.stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

/** Rows of the Worker's local D1 database, read through wrangler as an operator would. */
async function d1Rows(query: string): Promise<Record<string, unknown>[]> {
  const output = await wrangler(['d1', 'execute', 'DB', '--local', '--persist-to', d1Folder, '--json', '--command', query]);
  return (JSON.parse(output.slice(output.indexOf('['))) as { results: Record<string, unknown>[] }[])[0]!.results;
}

const makeDocument = (server: RunningServer, key: string) =>
  fetch(`${server.url}/api/v1/documents`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: fixtureText('reference-invoice.json'),
  });

/** Each case starts the CLI several times, a Node process each, against servers of their own: hence the long timeouts. */
describe('operator CLI with --url', { timeout: 240_000 }, () => {
  it('manages a Worker on local D1: account, confirmation, plan, credits, a key that renders, regenerated, revoked, purge', async () => {
    const url = ['--url', worker.url];
    const account = await svcJson([...url, 'accounts', 'create', '--email', 'Worker.Ops@example.com', '--unconfirmed']);
    expect(account).toMatchObject({ email: 'Worker.Ops@example.com', plan: 'free', credits_remaining: 50, email_confirmed: false });

    const refused = await svc([...url, 'keys', 'create', '--account', account.id, '--kind', 'full']);
    expect(refused).toEqual({
      code: 1,
      stdout: '',
      stderr: "svc: The account's email address is not confirmed; run accounts confirm-email first.\n",
    });

    expect(await svcJson(['accounts', 'confirm-email', account.id, ...url])).toMatchObject({ email_confirmed: true });
    expect(await svcJson([...url, 'accounts', 'set-plan', account.id, '--plan', 'starter'])).toMatchObject({ plan: 'starter' });
    expect(await svcJson([...url, 'credits', 'add', '--account', account.id, '--credits', '5'])).toMatchObject({ credits_remaining: 55 });
    const key = await svcJson(['keys', 'create', '--account', account.id, '--kind', 'full'], { SVC_OPERATOR_URL: `${worker.url}/` });

    // regenerate is a batch of two statements (new key, old one revoked): D1 runs a batch as one transaction.
    const regenerated = await svcJson([...url, 'keys', 'regenerate', key.id]);
    expect((await makeDocument(worker, key.key)).status).toBe(401);
    const made = await makeDocument(worker, regenerated.key);
    expect(made.status, await made.clone().text()).toBe(201);
    expect(made.headers.get('Svc-Credits-Remaining')).toBe('54');

    expect(await svcJson([...url, 'keys', 'revoke', regenerated.id])).toMatchObject({ id: regenerated.id, revoked_at: expect.any(String) });
    expect((await makeDocument(worker, regenerated.key)).status).toBe(401);
    expect(await svcJson([...url, 'purge'])).toMatchObject({ object: 'purge' });

    expect(await svcJson([...url, 'accounts', 'find', '--email', 'worker.ops@EXAMPLE.com'])).toMatchObject({
      id: account.id,
      plan: 'starter',
      credits_remaining: 54,
      email_confirmed: true,
    });
    const missing = await svc([...url, 'accounts', 'find', '--email', 'nobody@example.com']);
    expect(missing).toEqual({ code: 1, stdout: '', stderr: 'svc: No account with the email address "nobody@example.com".\n' });

    const [stored] = await d1Rows(`SELECT plan, credits_remaining, email_confirmed FROM accounts WHERE id = '${account.id}'`);
    expect(stored).toEqual({ plan: 'starter', credits_remaining: 54, email_confirmed: 1 });
    const keys = await d1Rows(`SELECT id, hash, revoked_at FROM api_keys WHERE account_id = '${account.id}' ORDER BY created_at, id`);
    expect(keys.map((row) => row.id).sort()).toEqual([key.id, regenerated.id].sort());
    expect(keys.every((row) => row.revoked_at !== null)).toBe(true);
    expect(JSON.stringify(keys)).not.toContain(key.key);
    expect(JSON.stringify(keys)).not.toContain(regenerated.key);
    expect(existsSync(localDatabase)).toBe(false);
    expect(worker.output()).not.toContain(SECRET);
  });

  it('says why when the secret is wrong or missing, and never sends it in clear across the network', async () => {
    const wrong = await svc(['--url', worker.url, 'purge'], { SVC_OPERATOR_SECRET: `${SECRET}-wrong` });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe("svc: the operator API refused SVC_OPERATOR_SECRET (401): it must be the deployment's OPERATOR_SECRET.\n");
    const none = await svc(['--url', worker.url, 'purge'], { SVC_OPERATOR_SECRET: '' });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('set SVC_OPERATOR_SECRET');
    const plain = await svc(['--url', 'http://svc.example.com', 'purge']);
    expect(plain.code).toBe(1);
    expect(plain.stderr).toContain('--url must start with https://');
    const argument = await svc(['--url', worker.url, 'purge', '--secret', SECRET]);
    expect(argument.code).toBe(1);
    expect(argument.stdout).toBe('');
    for (const result of [wrong, none, plain]) expect(result.stderr).not.toContain(SECRET);
  });

  it('manages a Bun server on its database file the same way, and names a deployment without OPERATOR_SECRET', async () => {
    const account = await svcJson(['accounts', 'create', '--email', 'bun.ops@example.com', '--credits', '3', '--url', bun.url]);
    expect(await svcJson(['--url', bun.url, 'credits', 'add', '--account', account.id, '--credits', '4'])).toMatchObject({
      credits_remaining: 7,
    });
    const client = createClient({ url: bunDatabaseUrl });
    const rows = await client.execute({ sql: 'SELECT email, credits_remaining FROM accounts WHERE id = ?', args: [account.id] });
    client.close();
    expect(rows.rows.map((row) => [row.email, Number(row.credits_remaining)])).toEqual([['bun.ops@example.com', 7]]);
    expect(bun.output()).not.toContain(SECRET);

    const absent = await svc(['--url', bunWithoutSecret.url, 'accounts', 'list']);
    expect(absent.code).toBe(1);
    expect(absent.stderr).toBe(
      `svc: ${bunWithoutSecret.url} has no operator API (404): set OPERATOR_SECRET on that deployment, or check --url.\n`,
    );
    expect(existsSync(localDatabase)).toBe(false);
  });
});
