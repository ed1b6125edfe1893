import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type RunningServer, startProcess, tempDir, wrangler, wranglerDevArguments } from '../support/processes.ts';
import { type SmtpSink, signInLinkIn, startSmtpSink } from '../support/smtp.ts';

const PASSWORD = 'pa55-w0rd-never-shown';
const LINK = 'http://localhost:8787/settings/sign-in/link?token=from-workerd';
const MESSAGE = { to: 'worker@example.com', subject: 'Your sign-in link', text: `Hello from workerd, é.\n\nSign in:\n${LINK}\n` };

/** test/support/mail-worker.ts in workerd (`wrangler dev --local`), with these SMTP settings as its vars. */
async function startMailWorker(vars: Record<string, string>): Promise<RunningServer> {
  const port = await freePort();
  const args = [...wranglerDevArguments(port, tempDir('svc-mail-worker-'), vars), '--config', 'test/support/mail-worker.toml'];
  return startProcess(process.execPath, args, { port, readyPath: '/', timeoutMs: 60_000 });
}

const send = (worker: RunningServer, message: object) => fetch(worker.url, { method: 'POST', body: JSON.stringify(message) });

let sink: SmtpSink;
const workers: RunningServer[] = [];
beforeAll(async () => {
  sink = await startSmtpSink({ auth: { user: 'svc', password: PASSWORD } });
});
afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
  await sink.close();
});

describe('SMTP through worker-mailer and connect(), on workerd', () => {
  it('the message arrives at the SMTP server, with AUTH, from, subject and the link readable', async () => {
    const worker = await startMailWorker({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SMTP_TLS: 'none',
      SMTP_USER: 'svc',
      SMTP_PASSWORD: PASSWORD,
      MAIL_FROM: 'Svc Documents <svc@example.com>',
    });
    workers.push(worker);
    const response = await send(worker, MESSAGE);
    expect(response.status, await response.clone().text()).toBe(204);
    const mail = await sink.waitForMessage({ to: MESSAGE.to });
    expect(mail).toMatchObject({ envelopeFrom: 'svc@example.com', from: '"Svc Documents" <svc@example.com>', user: 'svc' });
    expect(mail.subject).toBe('Your sign-in link');
    expect(mail.text.trim()).toBe(MESSAGE.text.trim());
    expect(signInLinkIn(mail)).toBe(LINK);
    expect(worker.output()).not.toContain(PASSWORD);
  });

  it('SMTP_TLS=starttls refuses a server that does not offer STARTTLS, before the password is sent', async () => {
    const worker = await startMailWorker({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(sink.port),
      SMTP_USER: 'svc',
      SMTP_PASSWORD: PASSWORD,
      MAIL_FROM: 'svc@example.com',
    });
    workers.push(worker);
    const logins = sink.logins().length;
    const response = await send(worker, { ...MESSAGE, to: 'downgraded@example.com' });
    expect(response.status).toBe(502);
    expect(await response.text()).toBe(
      `Could not send mail through the SMTP server 127.0.0.1:${sink.port} (SMTP_TLS=starttls): the server does not offer STARTTLS (SMTP_TLS=starttls requires it)`,
    );
    expect(sink.logins().length).toBe(logins);
    expect(sink.messages().filter((mail) => mail.to.includes('downgraded@example.com'))).toEqual([]);
  });

  it('STARTTLS checks the certificate: a self-signed one is refused, before the password is sent', async () => {
    const tlsSink = await startSmtpSink({ tls: 'starttls', auth: { user: 'svc', password: PASSWORD } });
    try {
      const worker = await startMailWorker({
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(tlsSink.port),
        SMTP_USER: 'svc',
        SMTP_PASSWORD: PASSWORD,
        MAIL_FROM: 'svc@example.com',
      });
      workers.push(worker);
      const response = await send(worker, MESSAGE);
      const error = await response.text();
      expect(response.status).toBe(502);
      expect(error).toMatch(
        new RegExp(`^Could not send mail through the SMTP server 127\\.0\\.0\\.1:${tlsSink.port} \\(SMTP_TLS=starttls\\): \\S`),
      );
      expect(tlsSink.logins()).toEqual([]);
      expect(tlsSink.messages()).toEqual([]);
    } finally {
      await tlsSink.close();
    }
  });

  it('a closed port: a clear error naming the server, without the password', async () => {
    const port = await freePort();
    const worker = await startMailWorker({
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_TLS: 'implicit',
      SMTP_USER: 'svc',
      SMTP_PASSWORD: PASSWORD,
      MAIL_FROM: 'svc@example.com',
    });
    workers.push(worker);
    const response = await send(worker, MESSAGE);
    const error = await response.text();
    expect(response.status).toBe(502);
    expect(error).toMatch(new RegExp(`^Could not send mail through the SMTP server 127\\.0\\.0\\.1:${port} \\(SMTP_TLS=implicit\\): \\S`));
    expect(error).not.toContain(PASSWORD);
    expect(worker.output()).not.toContain(PASSWORD);
  });
});

describe('the Worker bundle', () => {
  it('sends through worker-mailer and connect(), and carries no nodemailer (Node-only, kept to src/runtimes/server.ts)', async () => {
    const outdir = tempDir('svc-worker-bundle-');
    await wrangler(['deploy', '--dry-run', '--outdir', outdir]);
    const bundle = readFileSync(join(outdir, 'worker.js'), 'utf8');
    expect(bundle).toContain('cloudflare:sockets');
    expect(bundle).toContain('WorkerMailer');
    expect(bundle.toLowerCase()).not.toContain('nodemailer');
  }, 60_000);
});
