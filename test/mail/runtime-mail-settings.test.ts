import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, freePort, ROOT, type RunningServer, startBun, startNode, startProcess, startWorker, tempDir } from '../support/processes.ts';

const PASSWORD = 'pa55-w0rd-never-shown';
const WARNING = 'svc: warning: MAIL_TRANSPORT=console: mail is printed on this terminal and NOT sent.';
const database = () => ({ DATABASE_URL: `file:${join(tempDir(), 'svc.db')}` });
const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

const running: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
});
async function started(server: Promise<RunningServer>): Promise<RunningServer> {
  running.push(await server);
  return running.at(-1)!;
}
const warnings = (server: RunningServer) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes(WARNING)).length;

describe('the mail transport each runtime starts with', () => {
  it('npm start (Bun, --mail-default=console) without mail settings: the console transport, one warning at start', async () => {
    const [command, ...args] = scripts.start!.split(' ');
    expect(command).toBe('bun');
    expect(args).toContain('--mail-default=console');
    const port = await freePort();
    const server = await started(startProcess(join(BIN, 'bun'), args, { port, env: { PORT: String(port), ...database() } }));
    expect(warnings(server)).toBe(1);
  });

  it('the Bun entry point without the flag and without mail settings: no mailer, no console transport', async () => {
    const server = await started(startBun(database(), await freePort()));
    expect(server.output()).not.toContain('MAIL_TRANSPORT');
  });

  it('npm start with SMTP configured: SMTP, not the console transport', async () => {
    const [, ...args] = scripts.start!.split(' ');
    const port = await freePort();
    const env = {
      PORT: String(port),
      ...database(),
      SMTP_HOST: '127.0.0.1',
      SMTP_TLS: 'none',
      MAIL_FROM: 'svc@example.com',
      PUBLIC_BASE_URL: `http://localhost:${port}`,
    };
    const server = await started(startProcess(join(BIN, 'bun'), args, { port, env }));
    expect(server.output()).not.toContain('MAIL_TRANSPORT');
  });

  it('Node with MAIL_TRANSPORT=console: the warning once', async () => {
    const server = await started(startNode({ ...database(), MAIL_TRANSPORT: 'console' }, await freePort()));
    expect(warnings(server)).toBe(1);
  }, 60_000);

  it('refuses to start on an invalid mail setting, naming the variable and never the password', async () => {
    const env = {
      ...database(),
      SMTP_HOST: 'smtp.example.com',
      SMTP_TLS: 'none',
      SMTP_USER: 'svc',
      SMTP_PASSWORD: PASSWORD,
      MAIL_FROM: 'svc@example.com',
    };
    const refusal = await startBun(env, await freePort()).then(
      () => '',
      (error: Error) => error.message,
    );
    expect(refusal).toContain('svc: invalid configuration: SMTP_TLS=none would send SMTP_PASSWORD unencrypted to smtp.example.com');
    expect(refusal).not.toContain(PASSWORD);
    const port = await freePort();
    await expect(
      startProcess(process.execPath, ['src/runtimes/node.ts', '--mail-default=smtp'], { port, env: { PORT: String(port), ...database() } }),
    ).rejects.toThrow('svc: invalid configuration: --mail-default=console is the only default transport, got "--mail-default=smtp".');
  }, 60_000);

  it('npm run dev:worker chooses the console transport; the Worker warns once when it starts serving', async () => {
    expect(scripts['dev:worker']).toMatch(/ dev --local --var MAIL_TRANSPORT:console$/);
    const server = await started(startWorker(await freePort(), undefined, { vars: { MAIL_TRANSPORT: 'console' } }));
    await fetch(`${server.url}/api/v1/templates`);
    // workerd's log reaches wrangler's output a moment after the answer: wait for it, then ask again.
    await expect.poll(() => warnings(server), { timeout: 10_000 }).toBe(1);
    await fetch(`${server.url}/api/v1/templates`);
    expect(warnings(server), server.output()).toBe(1);
  }, 120_000);
});
