import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freePort, ROOT } from '../support/processes.ts';
import { type SmtpSink, signInLinkIn, startSmtpSink } from '../support/smtp.ts';

const PASSWORD = 'pa55-w0rd-never-shown';
const LINK = 'http://localhost:8787/settings/sign-in/link?token=from-bun';

/** test/support/send-mail.ts under Bun: the nodemailer transport as `npm start` runs it. */
function sendUnderBun(env: Record<string, string>, message: object): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(BIN, 'bun'), ['test/support/send-mail.ts', JSON.stringify(message)], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink({ auth: { user: 'svc', password: PASSWORD } });
});
afterAll(() => sink.close());

describe('SMTP through nodemailer under Bun', () => {
  it('the message arrives at the SMTP server, with AUTH, the link readable', async () => {
    const env = { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), SMTP_TLS: 'none', SMTP_USER: 'svc', SMTP_PASSWORD: PASSWORD };
    const sent = await sendUnderBun(
      { ...env, MAIL_FROM: 'Svc <svc@example.com>' },
      { to: 'bun@example.com', subject: 'Your sign-in link', text: `Sign in:\n${LINK}\n` },
    );
    expect(sent).toEqual({ code: 0, output: '' });
    const mail = await sink.waitForMessage({ to: 'bun@example.com' });
    expect(mail).toMatchObject({ from: '"Svc" <svc@example.com>', subject: 'Your sign-in link', user: 'svc' });
    expect(signInLinkIn(mail)).toBe(LINK);
  });

  it('a closed port: exit code 1 and a clear error without the password', async () => {
    const port = await freePort();
    const sent = await sendUnderBun(
      { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_USER: 'svc', SMTP_PASSWORD: PASSWORD, MAIL_FROM: 'svc@example.com' },
      { to: 'bun@example.com', subject: 'Your sign-in link', text: LINK },
    );
    expect(sent.code).toBe(1);
    expect(sent.output).toMatch(
      new RegExp(`^Could not send mail through the SMTP server 127\\.0\\.0\\.1:${port} \\(SMTP_TLS=starttls\\): .*ECONNREFUSED`),
    );
    expect(sent.output).not.toContain(PASSWORD);
  });
});
