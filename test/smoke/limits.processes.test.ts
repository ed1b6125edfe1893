import { afterAll, describe, expect, it } from 'vitest';
import { seedDatabaseFile } from '../support/accounts.ts';
import { finalInvoice } from '../support/documents.ts';
import { freePort, type RunningServer, startBun } from '../support/processes.ts';

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

describe('rate limits across processes', () => {
  it('three Bun servers on one database file admit exactly 10 finals a minute for one free key', async () => {
    const { url, client, account, key } = await seedDatabaseFile({ plan: 'free', credits: 50 });
    for (let i = 0; i < 3; i++) servers.push(await startBun({ DATABASE_URL: url }, await freePort()));

    const intoMinute = Date.now() % 60_000;
    if (intoMinute > 40_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 200));
    const responses = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        fetch(`${servers[i % 3]!.url}/api/v1/documents`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(finalInvoice()),
        }),
      ),
    );
    const answers = await Promise.all(
      responses.map(async (response) => (response.status === 201 ? 'created' : (await response.json()).error.details?.[0]?.code)),
    );
    expect(answers.filter((a) => a === 'created')).toHaveLength(10);
    expect(answers.filter((a) => a === 'final_key_limit')).toHaveLength(15);

    const documents = await client.execute({ sql: 'SELECT COUNT(*) AS n FROM documents WHERE account_id = ?', args: [account.id] });
    const balance = await client.execute({ sql: 'SELECT credits_remaining AS c FROM accounts WHERE id = ?', args: [account.id] });
    expect(Number(documents.rows[0]!.n)).toBe(10);
    expect(Number(balance.rows[0]!.c)).toBe(40);
    // The key's finals bucket, counted on its row by the three processes: the ten finals, not the refused ones.
    const finals = await client.execute({ sql: 'SELECT finals_in_window AS n FROM api_keys WHERE account_id = ?', args: [account.id] });
    expect(Number(finals.rows[0]!.n)).toBe(10);
    client.close();
  }, 120_000);
});
