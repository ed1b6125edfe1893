import { afterAll, describe, expect, it, vi } from 'vitest';
import type { SqlClient } from '../../src/db/embedded.ts';
import { seedDatabaseFile } from '../support/accounts.ts';
import { finalInvoice } from '../support/documents.ts';
import { freePort, type RunningServer, startBun } from '../support/processes.ts';
import { slowBody } from '../support/requests.ts';

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

/** Finals sent to each server at once: enough that one still has most of them to answer when it is killed. */
const KEYS = 50;
const CREDITS = 100;

/** The gap between the moments two keys' bodies are done arriving, in the burst. */
const BURST_SPACING_MS = 5;

async function documentCount(client: SqlClient): Promise<number> {
  return Number((await client.execute('SELECT count(*) AS n FROM documents')).rows[0]!.n);
}

describe('fault drill: a server process killed during a burst of keyed finals', () => {
  it('after restart and retries every key has at most one document and one charge, and credits + documents add up', async () => {
    const { url, client, account, key: fullKey } = await seedDatabaseFile({ plan: 'pro', credits: CREDITS });
    const env = { DATABASE_URL: url, LOG_REQUESTS: 'false', RATE_LIMITS_ENABLED: 'false' };
    const [a, b] = [await startBun(env, await freePort()), await startBun(env, await freePort())];
    servers.push(a, b);

    const post = (server: RunningServer, key: string, bodyDoneMs = 0) =>
      fetch(`${server.url}/api/v1/documents`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${fullKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
        body: slowBody(JSON.stringify(finalInvoice({ invoice_number: key })), bodyDoneMs),
        duplex: 'half',
      } as RequestInit);
    const answerOf = (posted: Promise<Response>) =>
      posted
        .then(async (response) => ({
          status: response.status,
          id: response.headers.get('Svc-Document-Id'),
          body: await response.arrayBuffer(),
        }))
        .catch(() => ({ status: 0, id: null, body: undefined }));
    const send = (server: RunningServer, key: string) => answerOf(post(server, key));

    // Each key sent to both servers at once, the keys' bodies done BURST_SPACING_MS apart: the burst lasts a quarter
    // of a second whatever the machine. Sent all at once, a server could read the whole burst in one go and answer it
    // all together at the end, within 20 ms, before this process (sharing the machine with other test files) had
    // seen its first answer, and nothing was killed during the burst.
    const burst = Array.from({ length: KEYS }, (_, i) => [post(a, `k-${i}`, i * BURST_SPACING_MS), post(b, `k-${i}`, i * BURST_SPACING_MS)])
      .flat()
      .map(answerOf);
    // Killed once the first finals are committed, most of the burst still to come or in flight.
    await vi.waitFor(async () => expect(await documentCount(client)).toBeGreaterThanOrEqual(5), { timeout: 10_000, interval: 1 });
    a.process.kill('SIGKILL');
    const first = await Promise.all(burst);
    const tally: Record<number, number> = {};
    for (const r of first) tally[r.status] = (tally[r.status] ?? 0) + 1;
    console.log(
      `burst of ${first.length} finals on ${KEYS} keys, one server killed: answers by status ${JSON.stringify(tally)} (0 = connection lost)`,
    );
    expect(tally[0]).toBeGreaterThan(0);

    const restarted = await startBun(env, await freePort());
    servers.push(restarted);
    await new Promise((resolve) => setTimeout(resolve, 36_000));

    const ids = new Map<string, string>();
    for (let i = 0; i < KEYS; i++) {
      for (let attempt = 0; ; attempt++) {
        const answer = await send(attempt % 2 ? b : restarted, `k-${i}`);
        if (answer.status === 201) {
          ids.set(`k-${i}`, answer.id!);
          break;
        }
        expect([409]).toContain(answer.status);
        if (attempt > 10) throw new Error(`k-${i} never completed`);
        await new Promise((resolve) => setTimeout(resolve, 5_000));
      }
    }

    const documents = await client.execute({ sql: 'SELECT id FROM documents WHERE account_id = ?', args: [account.id] });
    const keys = await client.execute({ sql: 'SELECT key, document_id FROM idempotency_keys WHERE account_id = ?', args: [account.id] });
    const balance = await client.execute({ sql: 'SELECT credits_remaining AS c FROM accounts WHERE id = ?', args: [account.id] });
    const integrity = await client.execute('PRAGMA integrity_check');
    client.close();
    expect(integrity.rows.map((row) => row[0])).toEqual(['ok']);
    expect(documents.rows).toHaveLength(KEYS);
    expect(new Set(documents.rows.map((row) => row.id))).toEqual(new Set(ids.values()));
    expect(keys.rows.every((row) => ids.get(String(row.key)) === row.document_id)).toBe(true);
    expect(Number(balance.rows[0]!.c) + documents.rows.length).toBe(CREDITS);
    for (const early of first) if (early.status === 201) expect([...ids.values()]).toContain(early.id);
  }, 180_000);
});
