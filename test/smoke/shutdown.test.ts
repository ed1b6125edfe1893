import { describe, expect, it } from 'vitest';
import { seedDatabaseFile } from '../support/accounts.ts';
import { finalInvoice } from '../support/documents.ts';
import { freePort, type RunningServer, startBun, startNode } from '../support/processes.ts';

/** A body that arrives slowly, so the request is in flight when the server is told to stop. */
function slowBody(text: string, ms: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const half = Math.floor(bytes.length / 2);
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(bytes.subarray(0, half));
      await new Promise((resolve) => setTimeout(resolve, ms));
      controller.enqueue(bytes.subarray(half));
      controller.close();
    },
  });
}

describe.each([
  ['Bun', startBun],
  ['Node', startNode],
] as const)('graceful shutdown under %s', (_, start) => {
  it('finishes a final in flight, charged and answered, then exits 0', async () => {
    const { url, client, account, key } = await seedDatabaseFile({ plan: 'free', credits: 3 });
    const server: RunningServer = await start({ DATABASE_URL: url }, await freePort());
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));

    const pending = fetch(`${server.url}/api/v1/documents`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: slowBody(JSON.stringify(finalInvoice()), 600),
      duplex: 'half',
    } as RequestInit);
    await new Promise((resolve) => setTimeout(resolve, 200));
    server.process.kill('SIGTERM');

    const response = await pending;
    expect(response.status).toBe(201);
    expect(response.headers.get('Svc-Credits-Remaining')).toBe('2');
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect(await exited).toBe(0);
    const balance = await client.execute({ sql: 'SELECT credits_remaining AS c FROM accounts WHERE id = ?', args: [account.id] });
    expect(Number(balance.rows[0]!.c)).toBe(2);
    client.close();
    await expect(fetch(`${server.url}/api/v1/templates`)).rejects.toThrow();
  }, 30_000);
});
