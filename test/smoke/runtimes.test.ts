import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateKey, hashKey } from '../../src/auth/key-format.ts';
import { hasWalResetFix } from '../../src/db/checkpoints.ts';
import { seedDatabaseFile } from '../support/accounts.ts';
import { BIN, freePort, ROOT, type RunningServer, startBun, startNode, startWorker, tempDir } from '../support/processes.ts';
import { fixtureText } from '../support/requests.ts';

const run = promisify(execFile);
const running: Record<string, { server: RunningServer; key: string }> = {};
const REFERENCE = fixtureText('reference-invoice.json');
/** The golden of test/render for this request (invoice 2.4.0, 3 lines). */
const REFERENCE_SHA = 'fe4ebf42f0701bd8a2e9ebae237592d955e099ac1b063fc7b9b6b36f22904493';

async function libsqlServer(start: typeof startBun) {
  const { url, client, key } = await seedDatabaseFile({ plan: 'free', credits: 5 });
  client.close();
  return { server: await start({ DATABASE_URL: url }, await freePort()), key };
}

async function workerServer() {
  const key = generateKey();
  const now = Date.now();
  const seed = `INSERT INTO accounts (id, email, email_confirmed, plan, credits_remaining, period_end, created_at)
    VALUES ('acct_smoke', 'smoke@example.com', 1, 'free', 5, ${now + 30 * 86_400_000}, ${now});
    INSERT INTO api_keys (id, account_id, name, kind, prefix, hash, scopes, created_at)
    VALUES ('key_smoke', 'acct_smoke', 'smoke', 'full', '${key.slice(0, 13)}', '${hashKey(key)}',
      'documents:create documents:preview documents:read account:read', ${now});`;
  return { server: await startWorker(await freePort(), seed), key };
}

beforeAll(async () => {
  const [bun, node, worker] = await Promise.all([libsqlServer(startBun), libsqlServer(startNode), workerServer()]);
  Object.assign(running, { bun, node, worker });
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(running).map(({ server }) => server.stop()));
});

describe('the same service on Bun, Node and workerd', () => {
  it('answers GET /api/v1/templates with the same body everywhere', async () => {
    const bodies = await Promise.all(
      Object.values(running).map(async ({ server }) => {
        const response = await fetch(`${server.url}/api/v1/templates`);
        expect(response.status).toBe(200);
        expect(response.headers.get('Svc-Version')).toBe('2026-10-01');
        return response.text();
      }),
    );
    expect(new Set(bodies).size).toBe(1);
  });

  it('makes the same PDF bytes (SHA-256) for the same request everywhere, and charges one credit', async () => {
    for (const [runtime, { server, key }] of Object.entries(running)) {
      const response = await fetch(`${server.url}/api/v1/documents`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: REFERENCE,
      });
      expect(
        response.status,
        `${runtime}: ${response.status === 201 ? '' : await response.clone().text()}\n${server.output().slice(-3000)}`,
      ).toBe(201);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const digest = Buffer.from(await crypto.subtle.digest('SHA-256', bytes)).toString('hex');
      expect(digest, runtime).toBe(REFERENCE_SHA);
      expect(response.headers.get('Svc-Document-Sha256'), runtime).toBe(REFERENCE_SHA);
      expect(response.headers.get('Svc-Credits-Remaining'), runtime).toBe('4');
    }
  });

  it('answers every keyed request type alike with rate limits on (each one batch or two on the database)', async () => {
    for (const [runtime, { server, key }] of Object.entries(running)) {
      const call = (path: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) =>
        fetch(`${server.url}${path}`, {
          ...init,
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...init.headers },
        });
      const preview = JSON.stringify({ ...JSON.parse(REFERENCE), mode: 'preview' });
      const idempotencyKey = { 'Idempotency-Key': `smoke-${runtime}` };
      const made = await call('/api/v1/documents', { method: 'POST', body: REFERENCE, headers: idempotencyKey });
      const replayed = await call('/api/v1/documents', { method: 'POST', body: REFERENCE, headers: idempotencyKey });
      const answers = {
        made: made.status,
        replayed: [replayed.status, replayed.headers.get('Svc-Idempotent-Replay'), replayed.headers.get('Svc-Document-Id')],
        preview: (await call('/api/v1/documents', { method: 'POST', body: preview, headers: { 'Idempotency-Key': `p-${runtime}` } }))
          .status,
        account: (await call('/api/v1/account')).status,
        list: (await call('/api/v1/documents')).status,
        record: (await call(`/api/v1/documents/${made.headers.get('Svc-Document-Id')}`)).status,
        validate: (await call('/api/v1/documents/validate', { method: 'POST', body: REFERENCE })).status,
        unknownKey: (await call('/api/v1/account', { headers: { Authorization: `Bearer ${generateKey()}` } })).status,
        rateLimit: (await call('/api/v1/account')).headers.get('RateLimit-Limit'),
      };
      expect(answers, `${runtime}\n${server.output().slice(-3000)}`).toEqual({
        made: 201,
        replayed: [201, 'true', made.headers.get('Svc-Document-Id')],
        preview: 201,
        account: 200,
        list: 200,
        record: 200,
        validate: 200,
        unknownKey: 401,
        rateLimit: '120',
      });
    }
  });

  it('refuses to start with a clear message on an invalid setting', async () => {
    await expect(startBun({ PORT: 'eighty' }, await freePort())).rejects.toThrow(/PORT must be 0 to 65535/);
    await expect(startNode({ RENDER_CONCURRENCY: '0' }, await freePort())).rejects.toThrow(/RENDER_CONCURRENCY must be a whole number/);
  });
});

describe('the SQLite a Bun server opens its file with', () => {
  it("has the fix of the WAL-reset bug (3.51.3 or later), and migrates the service's database on it", async () => {
    const script = `const { openDatabase } = await import('./src/db/libsql.ts');
      const { client } = await openDatabase('file:${join(tempDir('svc-engine-'), 'svc.db')}');
      const { rows } = await client.execute('SELECT sqlite_version() AS version');
      console.log(rows[0].version);
      client.close();`;
    const { stdout } = await run(join(BIN, 'bun'), ['-e', script], { cwd: ROOT });
    expect(hasWalResetFix(stdout.trim())).toBe(true);
  });
});
