import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDatabaseFile } from '../support/accounts.ts';
import { exerciseClient } from '../support/client-program.ts';
import { BIN, freePort, type RunningServer, startBun, startProcess, tempDir, wranglerDevArguments } from '../support/processes.ts';

/**
 * The client runs where docs/client.md says it does: the same program runs it in Node, in Bun and in workerd (a Worker
 * with no compatibility flag) against one real server, and each reads the same answers the same way. That it uses
 * fetch and Web APIs only is held by test/unit/client-types.test.ts: workerd of this compatibility date has Buffer
 * and process anyway, so running there alone would not show it.
 */
let server: RunningServer;
let worker: RunningServer;
let database: Awaited<ReturnType<typeof seedDatabaseFile>>['client'];
let key: string;
let accountId: string;

beforeAll(async () => {
  const seeded = await seedDatabaseFile({ plan: 'free', credits: 5 });
  ({ client: database, key } = seeded);
  accountId = seeded.account.id;
  const workerPort = await freePort();
  const workerArgs = [...wranglerDevArguments(workerPort, tempDir('svc-client-worker-')), '--config', 'test/support/client-worker.toml'];
  [server, worker] = await Promise.all([
    startBun({ DATABASE_URL: seeded.url }, await freePort()),
    startProcess(process.execPath, workerArgs, { port: workerPort, readyPath: '/', timeoutMs: 60_000 }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([server?.stop(), worker?.stop()]);
  database?.close();
});

const EXPECTED = {
  templates: ['invoice', 'quote', 'receipt'],
  made: {
    mode: 'final',
    creditUsed: true,
    replay: false,
    reference: 'runtime-check',
    totals: { currency: 'EUR', subtotal: '100.00', total: '100.00', balance_due: '100.00' },
    filename: 'invoice-INV-Ü.pdf',
    pdfStart: '%PDF-',
    bytesMatchSha256: true,
  },
  replay: { replay: true, creditUsed: false, sameDocument: true },
  refused: { status: 422, code: 'validation_failed', fields: ['fields.date'], hasRequestId: true },
};

describe('the client program in three runtimes against the Bun server', () => {
  let inNode: Awaited<ReturnType<typeof exerciseClient>>;

  it('Node: a keyed final, its replay and a refusal, read as the contract states them', async () => {
    inNode = await exerciseClient(server.url, key);
    expect(inNode).toMatchObject(EXPECTED);
    expect(inNode.replay.sha256).toBe(inNode.made.sha256);
  });

  it('Bun: the same summary', () => {
    const run = spawnSync(join(BIN, 'bun'), ['test/support/client-program.ts', server.url, key], { encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(inNode);
  });

  it('workerd: the same summary', async () => {
    const response = await fetch(worker.url, { method: 'POST', body: JSON.stringify({ baseUrl: server.url, apiKey: key }) });
    const text = await response.text();
    expect(response.status, `${text}\n${worker.output().slice(-2000)}`).toBe(200);
    expect(JSON.parse(text)).toEqual(inNode);
  });

  it('three finals charged, one per runtime, the replays free', async () => {
    const credits = await database.execute({ sql: 'SELECT credits_remaining FROM accounts WHERE id = ?', args: [accountId] });
    expect(credits.rows[0]!.credits_remaining).toBe(2);
    const records = await database.execute({ sql: 'SELECT COUNT(*) AS n FROM documents WHERE account_id = ?', args: [accountId] });
    expect(records.rows[0]!.n).toBe(3);
  });
});
