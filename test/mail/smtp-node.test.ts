import { afterEach, describe, expect, it } from 'vitest';
import type { SmtpSettings } from '../../src/mail/config.ts';
import { createNodeSmtpMailer } from '../../src/mail/smtp-node.ts';
import { freePort } from '../support/processes.ts';
import { type SmtpSink, type SmtpSinkOptions, signInLinkIn, startSmtpSink } from '../support/smtp.ts';

const PASSWORD = 'pa55-w0rd-never-shown';
const LINK = `http://localhost:8787/settings/sign-in/link?token=${'t0K-'.repeat(20)}`;
const MESSAGE = {
  to: 'Ada@Example.com',
  subject: 'Your sign-in link',
  text: `Hello Ada, é.\n\nSign in:\n${LINK}\n\nValid for 15 minutes.\n`,
};

let sink: SmtpSink | undefined;
afterEach(async () => {
  await sink?.close();
  sink = undefined;
});

async function sinkAnd(options: SmtpSinkOptions, settings: Partial<SmtpSettings>) {
  sink = await startSmtpSink(options);
  const smtp: SmtpSettings = {
    host: '127.0.0.1',
    port: sink.port,
    tls: 'none',
    auth: undefined,
    from: { name: 'Svc Documents', address: 'svc@example.com' },
    ...settings,
  };
  return { sink, mailer: createNodeSmtpMailer(smtp, { trustedCertificates: sink.certificate }) };
}

async function failureOf(send: Promise<void>): Promise<string> {
  const error = await send.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(Error);
  const message = (error as Error).message;
  expect(message).not.toContain(PASSWORD);
  expect(message).not.toContain(btoa(PASSWORD));
  return message;
}

describe('SMTP through nodemailer, to a real SMTP server', () => {
  it('plain (SMTP_TLS=none): the message arrives with its sender, recipient, subject and text, the link readable', async () => {
    const { sink, mailer } = await sinkAnd({}, {});
    await mailer.send(MESSAGE);
    const mail = await sink.waitForMessage({ to: 'ada@example.com' });
    expect(mail).toMatchObject({ envelopeFrom: 'svc@example.com', to: ['ada@example.com'], from: '"Svc Documents" <svc@example.com>' });
    expect(mail.subject).toBe('Your sign-in link');
    expect(mail.text.trim()).toBe(MESSAGE.text.trim());
    expect(signInLinkIn(mail)).toBe(LINK);
    expect(mail.secure).toBe(false);
  });

  it('with AUTH: the user and password are given', async () => {
    const { sink, mailer } = await sinkAnd({ auth: { user: 'svc', password: PASSWORD } }, { auth: { user: 'svc', password: PASSWORD } });
    await mailer.send(MESSAGE);
    expect((await sink.waitForMessage({ to: MESSAGE.to })).user).toBe('svc');
  });

  it('with STARTTLS and AUTH (the default SMTP_TLS): the message travels encrypted', async () => {
    const { sink, mailer } = await sinkAnd(
      { tls: 'starttls', auth: { user: 'svc', password: PASSWORD } },
      { tls: 'starttls', auth: { user: 'svc', password: PASSWORD } },
    );
    await mailer.send(MESSAGE);
    const mail = await sink.waitForMessage({ to: MESSAGE.to });
    expect(mail.secure).toBe(true);
    expect(signInLinkIn(mail)).toBe(LINK);
  });

  it('with implicit TLS', async () => {
    const { sink, mailer } = await sinkAnd({ tls: 'implicit' }, { tls: 'implicit' });
    await mailer.send(MESSAGE);
    expect((await sink.waitForMessage({ to: MESSAGE.to })).secure).toBe(true);
  });

  it('SMTP_TLS=starttls refuses a server that does not offer STARTTLS, before the password is sent', async () => {
    const { sink, mailer } = await sinkAnd(
      { auth: { user: 'svc', password: PASSWORD } },
      { tls: 'starttls', auth: { user: 'svc', password: PASSWORD } },
    );
    const message = await failureOf(mailer.send(MESSAGE));
    expect(message).toMatch(/^Could not send mail through the SMTP server 127\.0\.0\.1:\d+ \(SMTP_TLS=starttls\): .*STARTTLS/i);
    expect(sink.logins()).toEqual([]);
    expect(sink.messages()).toEqual([]);
  });

  it('a wrong password: a clear error, without the password', async () => {
    const { sink, mailer } = await sinkAnd(
      { auth: { user: 'svc', password: 'the-right-one' } },
      { auth: { user: 'svc', password: PASSWORD } },
    );
    expect(await failureOf(mailer.send(MESSAGE))).toMatch(
      /^Could not send mail through the SMTP server 127\.0\.0\.1:\d+ \(SMTP_TLS=none\): .*535/,
    );
    expect(sink.messages()).toEqual([]);
  });

  it('a refused recipient: the error names the server and the reason, never the address the server quoted back', async () => {
    const { sink, mailer } = await sinkAnd({ refuseRecipients: true }, {});
    const message = await failureOf(mailer.send(MESSAGE));
    expect(message).toMatch(
      /^Could not send mail through the SMTP server 127\.0\.0\.1:\d+ \(SMTP_TLS=none\): .*550.*Recipient address rejected/,
    );
    expect(message.toLowerCase()).not.toContain('ada@example.com');
    expect(message).toContain('<address>');
    expect(sink.messages()).toEqual([]);
  });

  it('a closed port: a clear error naming the server, without the password', async () => {
    const port = await freePort();
    const mailer = createNodeSmtpMailer({
      host: '127.0.0.1',
      port,
      tls: 'starttls',
      auth: { user: 'svc', password: PASSWORD },
      from: { name: undefined, address: 'svc@example.com' },
    });
    expect(await failureOf(mailer.send(MESSAGE))).toBe(
      `Could not send mail through the SMTP server 127.0.0.1:${port} (SMTP_TLS=starttls): connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });

  it('refuses a recipient or a subject that would add headers or commands, and sends nothing', async () => {
    const { sink, mailer } = await sinkAnd({}, {});
    await expect(mailer.send({ ...MESSAGE, to: 'ada@example.com\r\nRCPT TO:<eve@example.com>' })).rejects.toThrow(
      'The recipient is not a plain email address; nothing was sent.',
    );
    await expect(mailer.send({ ...MESSAGE, to: 'Ada <ada@example.com>' })).rejects.toThrow('The recipient is not a plain email address');
    await expect(mailer.send({ ...MESSAGE, subject: 'Hi\r\nBcc: eve@example.com' })).rejects.toThrow(
      'The subject has a line break; nothing was sent.',
    );
    expect(sink.messages()).toEqual([]);
  });
});
