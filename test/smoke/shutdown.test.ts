import { describe, expect, it } from 'vitest';
import { seedDatabaseFile } from '../support/accounts.ts';
import { finalInvoice } from '../support/documents.ts';
import { freePort, type RunningServer, startBun, startNode } from '../support/processes.ts';
import { slowBody } from '../support/requests.ts';
import { startSmtpSink } from '../support/smtp.ts';

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

  it('sends a sign-in mail handed on after its answer before it exits, even from a slow mail server', async () => {
    const sink = await startSmtpSink({ greetingDelayMs: 1_500 });
    const { url } = await seedDatabaseFile({ plan: 'free', credits: 3 });
    const port = await freePort();
    const baseUrl = `http://localhost:${port}`;
    const server: RunningServer = await start(
      {
        DATABASE_URL: url,
        PUBLIC_BASE_URL: baseUrl,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(sink.port),
        SMTP_TLS: 'none',
        MAIL_FROM: 'svc@example.com',
      },
      port,
    );
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));

    const answer = await fetch(`${server.url}/settings/sign-up`, {
      method: 'POST',
      headers: { Origin: baseUrl, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'email=late.mail%40example.com',
    });
    expect(answer.status).toBe(200);
    expect(sink.messages()).toEqual([]);
    server.process.kill('SIGTERM');

    expect(await exited).toBe(0);
    expect(sink.messages().map((mail) => mail.to)).toEqual([['late.mail@example.com']]);
    await sink.close();
  }, 30_000);
});
