import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSmtpMailer } from '../../src/mail/smtp-node.ts';
import { type SmtpSink, signInLinkIn, startSmtpSink } from '../support/smtp.ts';

const link = (token: string) => `https://svc.example.com/settings/sign-in/link?token=${token}`;

let sink: SmtpSink;
let mailer: ReturnType<typeof createNodeSmtpMailer>;
beforeAll(async () => {
  sink = await startSmtpSink();
  mailer = createNodeSmtpMailer({
    host: sink.host,
    port: sink.port,
    tls: 'none',
    auth: undefined,
    from: { name: undefined, address: 'svc@example.com' },
  });
});
afterAll(() => sink.close());

describe('the test SMTP sink (test/support/smtp.ts), which the Settings and browser tests read links from', () => {
  it('hands out each message to an address once, oldest first; messages() keeps them all', async () => {
    await mailer.send({ to: 'twice@example.com', subject: 'Your sign-in link', text: `first\n${link('one')}\n` });
    await mailer.send({ to: 'other@example.com', subject: 'Your sign-in link', text: `${link('other')}\n` });
    await mailer.send({ to: 'twice@example.com', subject: 'Your sign-in link', text: `second\n${link('two')}\n` });
    expect(signInLinkIn(await sink.waitForMessage({ to: 'TWICE@example.com' }))).toBe(link('one'));
    expect(signInLinkIn(await sink.waitForMessage({ to: 'twice@example.com' }))).toBe(link('two'));
    expect(sink.messages().map((mail) => mail.to[0])).toEqual(['twice@example.com', 'other@example.com', 'twice@example.com']);
  });

  it('waits for a message that has not arrived yet, and fails after the timeout listing what came', async () => {
    const waiting = sink.waitForMessage({ to: 'later@example.com' });
    await mailer.send({ to: 'later@example.com', subject: 'Your sign-in link', text: link('later') });
    expect(signInLinkIn(await waiting)).toBe(link('later'));
    await expect(sink.waitForMessage({ to: 'later@example.com', timeoutMs: 200 })).rejects.toThrow(
      /^no message to later@example\.com within 200 ms; received:\n {2}twice@example\.com: Your sign-in link/,
    );
  });

  it('signInLinkIn fails on a message without a link', async () => {
    await mailer.send({ to: 'nolink@example.com', subject: 'Hello', text: 'https://svc.example.com/settings\n' });
    expect(() => signInLinkIn(sink.messages().at(-1)!)).toThrow('no sign-in link in the message "Hello"');
  });
});
