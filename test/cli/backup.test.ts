import { execFile } from 'node:child_process';
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Libsql from 'libsql';
import { afterAll, describe, expect, it } from 'vitest';
import { seedDatabaseFile } from '../support/accounts.ts';
import { finalInvoice } from '../support/documents.ts';
import { BIN, freePort, ROOT, type RunningServer, startBun, tempDir } from '../support/processes.ts';

const run = promisify(execFile);
const servers: RunningServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

/** The real CLI as a process on a database URL; resolves with exit code, stdout and stderr. */
async function svc(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(join(BIN, 'node'), ['src/cli/index.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl, SVC_OPERATOR_URL: '' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const SERVER_ENV = { RATE_LIMITS_ENABLED: 'false', LOG_REQUESTS: 'false' };
const CREDITS = 100_000;

function makeFinal(server: RunningServer, key: string, reference: string): Promise<Response> {
  return fetch(`${server.url}/api/v1/documents`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(finalInvoice({}, { reference })),
  });
}

/** One row of SQL on a file, through a connection of its own. */
function readFile(path: string, sql: string, args: unknown[] = []): Record<string, unknown> {
  const connection = new Libsql(path);
  try {
    return connection.prepare(sql).get(args) as Record<string, unknown>;
  } finally {
    connection.close();
  }
}

describe('svc backup', { timeout: 120_000 }, () => {
  it('copies the file while a server writes to it, and a server started on the copy serves what it holds', async () => {
    const seeded = await seedDatabaseFile({ plan: 'pro', credits: CREDITS });
    seeded.client.close();
    const live = seeded.url.replace(/^file:/, '');
    const server = await startBun({ ...SERVER_ENV, DATABASE_URL: seeded.url }, await freePort());
    servers.push(server);
    for (let n = 1; n <= 3; n++) expect((await makeFinal(server, seeded.key, `before-${n}`)).status).toBe(201);

    // Finals keep coming from the server process, two at a time, until the backup has been taken and more have followed.
    let made = 0;
    let writing = true;
    const writer = async () => {
      while (writing) {
        const response = await makeFinal(server, seeded.key, `during-${crypto.randomUUID()}`);
        expect(response.status).toBe(201);
        made++;
      }
    };
    const writers = [writer(), writer()];
    await expect.poll(() => made, { timeout: 30_000 }).toBeGreaterThan(0);

    const copy = join(tempDir('svc-backup-'), 'copy.db');
    const backup = await svc(seeded.url, 'backup', '--to', copy);
    const madeWhenCopied = made;
    await expect.poll(() => made, { timeout: 30_000 }).toBeGreaterThan(madeWhenCopied);
    writing = false;
    await Promise.all(writers);

    expect(backup.code, backup.stderr).toBe(0);
    expect(JSON.parse(backup.stdout)).toEqual({ object: 'backup', file: copy, bytes: expect.any(Number), quick_check: 'ok' });
    expect(existsSync(`${copy}-wal`)).toBe(false);
    expect(readFile(copy, 'PRAGMA quick_check')).toMatchObject({ quick_check: 'ok' });
    // One snapshot: every document in the copy was charged in the copy, and every charge has its document.
    const ledgerSql =
      'SELECT credits_remaining AS credits, (SELECT count(*) FROM documents WHERE account_id = accounts.id) AS documents FROM accounts WHERE id = ?';
    const copied = readFile(copy, ledgerSql, [seeded.account.id]) as { credits: number; documents: number };
    expect(copied.credits + copied.documents).toBe(CREDITS);
    expect(copied.documents).toBeGreaterThanOrEqual(3 + 1);
    const afterwards = readFile(live, ledgerSql, [seeded.account.id]) as { documents: number };
    expect(afterwards.documents).toBeGreaterThan(copied.documents);

    // Restore: the copy as the database file of a new server (no -wal or -shm beside it).
    const restoredFile = join(tempDir('svc-restored-'), 'svc.db');
    copyFileSync(copy, restoredFile);
    const restored = await startBun({ ...SERVER_ENV, DATABASE_URL: `file:${restoredFile}` }, await freePort());
    servers.push(restored);
    const account = await fetch(`${restored.url}/api/v1/account`, { headers: { Authorization: `Bearer ${seeded.key}` } });
    expect(account.status).toBe(200);
    expect((await account.json()).credits.remaining).toBe(copied.credits);
    const listed = await fetch(`${restored.url}/api/v1/documents?reference=before-2`, {
      headers: { Authorization: `Bearer ${seeded.key}` },
    });
    expect((await listed.json()).data).toHaveLength(1);
    expect((await makeFinal(restored, seeded.key, 'after-restore')).status).toBe(201);
    expect(readFile(restoredFile, ledgerSql, [seeded.account.id])).toMatchObject({
      credits: copied.credits - 1,
      documents: copied.documents + 1,
    });
  });

  it('refuses to overwrite a file, to run without a file, and to run through the operator API', async () => {
    const seeded = await seedDatabaseFile({ plan: 'free', credits: 1 });
    seeded.client.close();
    const existing = join(tempDir('svc-backup-'), 'taken.db');
    copyFileSync(seeded.url.replace(/^file:/, ''), existing);
    const overwrite = await svc(seeded.url, 'backup', '--to', existing);
    expect(overwrite).toMatchObject({ code: 1, stdout: '' });
    expect(overwrite.stderr).toContain('never overwrites');
    const missing = await svc(`file:${join(tempDir(), 'none.db')}`, 'backup', '--to', join(tempDir(), 'copy.db'));
    expect(missing.stderr).toMatch(/^svc: no database file at /);
    const server = await svc('libsql://db.example.com', 'backup', '--to', join(tempDir(), 'copy.db'));
    expect(server.stderr).toContain('a libSQL server (libsql://…) is backed up with its own tools');
    const remote = await svc(seeded.url, '--url', 'https://svc.example.com', 'backup', '--to', join(tempDir(), 'copy.db'));
    expect(remote).toMatchObject({ code: 1, stdout: '' });
    expect(remote.stderr).toContain('never through the operator API');
  });
});
