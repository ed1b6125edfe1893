import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/auth/key-format.ts';
import { seedDatabaseFile } from '../support/accounts.ts';
import { finalInvoice } from '../support/documents.ts';
import { BIN, freePort, ROOT, type RunningServer, startBun, startNode } from '../support/processes.ts';

const servers: RunningServer[] = [];
const holders: ChildProcess[] = [];
afterAll(async () => {
  for (const holder of holders) if (holder.exitCode === null) holder.kill('SIGKILL');
  await Promise.all(servers.map((server) => server.stop()));
});

/** A second process that holds the file's write lock until `release()`, as a slow writer elsewhere would. */
async function holdWriteLock(path: string) {
  const holder = spawn(join(BIN, 'node'), [join(ROOT, 'test/smoke/write-lock-holder.cjs'), path], {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  holders.push(holder);
  let output = '';
  const said = (word: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (output.includes(word) ? resolve() : undefined);
      holder.stdout!.on('data', (chunk) => {
        output += chunk;
        check();
      });
      holder.once('exit', (code) => (output.includes(word) ? resolve() : reject(new Error(`lock holder exited ${code} before "${word}"`))));
      check();
    });
  await said('locked');
  return async () => {
    const released = said('released');
    holder.stdin!.write('release\n');
    await released;
  };
}

/** The operator CLI as a process on the same file. */
function svc(databaseUrl: string, ...args: string[]) {
  return promisify(execFile)(process.execPath, ['src/cli/index.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}

describe('another process holding the database write lock', () => {
  it('is answered 503 service_busy by real Bun and Node servers, which recover by themselves once it is released', async () => {
    const { url, client, account, key } = await seedDatabaseFile({ plan: 'pro', credits: 10 });
    const path = url.replace(/^file:/, '');
    const env = { DATABASE_URL: url };
    const runtimes = { bun: await startBun(env, await freePort()), node: await startNode(env, await freePort()) };
    servers.push(...Object.values(runtimes));

    const send = (server: RunningServer, body: unknown, idempotencyKey?: string) =>
      fetch(`${server.url}/api/v1/documents`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          ...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
        },
        body: JSON.stringify(body),
      });
    const final = (runtime: string) => finalInvoice({ invoice_number: `LOCK-${runtime}` }, { reference: `ref-lock-${runtime}` });
    const preview = { ...finalInvoice(), mode: 'preview' };

    const release = await holdWriteLock(path);
    // The CLI started during the lock waits for it rather than failing.
    const cliDuringLock = svc(url, 'keys', 'create', '--account', account.id, '--kind', 'preview', '--name', 'made during the lock');
    const took: string[] = [];
    const timed = async <T>(label: string, work: Promise<T>) => {
      const started = performance.now();
      const result = await work;
      took.push(`${label} ${Math.round(performance.now() - started)} ms`);
      return result;
    };
    const duringLock = Object.entries(runtimes).map(async ([runtime, server]) => {
      const answers = [
        await timed(`${runtime} final`, send(server, final(runtime), `idem-lock-${runtime}`)),
        await timed(`${runtime} preview`, send(server, preview)),
      ];
      for (const response of answers) {
        const text = await response.text();
        expect(response.status, `${runtime}: ${text}`).toBe(503);
        expect(JSON.parse(text).error.code).toBe('service_busy');
        expect(response.headers.get('Retry-After'), runtime).toMatch(/^[1-9]\d*$/);
      }
    });
    // While requests wait for the lock, the process still answers what needs no database.
    for (const [runtime, server] of Object.entries(runtimes))
      expect((await timed(`${runtime} templates`, fetch(`${server.url}/api/v1/templates`))).status, runtime).toBe(200);
    await Promise.all(duringLock);
    await release();
    console.log(`answered during the lock: ${took.join(', ')}`);
    const cli = await cliDuringLock;
    expect(JSON.parse(cli.stdout)).toMatchObject({ name: 'made during the lock', key: expect.stringMatching(/^svc_live_/) });

    for (const [runtime, server] of Object.entries(runtimes)) {
      const made = await send(server, final(runtime), `idem-lock-${runtime}`);
      expect(made.status, `${runtime}: ${made.status === 201 ? '' : await made.text()}`).toBe(201);
      const stored = await client.execute({
        sql: 'SELECT id, credits_consumed FROM documents WHERE reference = ?',
        args: [`ref-lock-${runtime}`],
      });
      expect(
        stored.rows.map((row) => ({ id: row.id, credits_consumed: row.credits_consumed })),
        runtime,
      ).toEqual([{ id: made.headers.get('Svc-Document-Id'), credits_consumed: 1 }]);
      expect((await send(server, preview)).status, runtime).toBe(201);
    }
    const balance = await client.execute({ sql: 'SELECT credits_remaining AS c FROM accounts WHERE id = ?', args: [account.id] });
    expect(balance.rows[0]!.c).toBe(8);
    const revoked = JSON.parse((await svc(url, 'keys', 'revoke', JSON.parse(cli.stdout).id)).stdout);
    expect(revoked.revoked_at).toEqual(expect.any(String));
    client.close();

    for (const [runtime, server] of Object.entries(runtimes)) {
      for (const secret of [`idem-lock-${runtime}`, `ref-lock-${runtime}`, key, hashKey(key)])
        expect(server.output(), runtime).not.toContain(secret);
    }
  }, 120_000);
});
