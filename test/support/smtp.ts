/**
 * A real SMTP server for tests (the `smtp-server` package) on a free port of 127.0.0.1, keeping every message it
 * accepts, parsed (quoted-printable and base64 bodies decoded by `mailparser`).
 *
 *   const sink = await startSmtpSink();                    // or { auth: { user, password }, tls: 'starttls' | 'implicit' }
 *   // point the service at it: SMTP_HOST=127.0.0.1 SMTP_PORT=${sink.port} SMTP_TLS=none MAIL_FROM=…
 *   const mail = await sink.waitForMessage({ to: 'ada@example.com' });
 *   const link = signInLinkIn(mail);                        // http(s)://…/settings/sign-in/link?token=…
 *   await sink.close();
 *
 * `waitForMessage` hands each message out once, oldest first: a test that asks for two links to one address
 * gets the first, then the second. `messages()` lists everything received, handed out or not.
 * With `auth`, the server advertises AUTH PLAIN/LOGIN and refuses a MAIL FROM before a correct user and password;
 * `logins()` lists the users of every AUTH attempt, right or wrong (a test that the password was never sent).
 * With `greetingDelayMs`, each connection waits that long for the server's greeting (a slow mail server).
 * With `refuseRecipients`, every RCPT TO is refused with 550, naming the address as real servers do.
 * With `tls`, the server uses a self-signed certificate for `localhost` and 127.0.0.1, made at start with the
 * openssl command; `certificate` is its PEM, for a client that must trust it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort, tempDir } from './processes.ts';

export interface ReceivedMail {
  /** The envelope's MAIL FROM address. */
  readonly envelopeFrom: string;
  /** The envelope's RCPT TO addresses, in lower case. */
  readonly to: readonly string[];
  /** The From header as written (`Name <address>` or `address`). */
  readonly from: string;
  readonly subject: string;
  /** The decoded text/plain body. */
  readonly text: string;
  /** The message as received, headers and encoded body. */
  readonly raw: string;
  /** The user that authenticated for this message, when the sink takes AUTH. */
  readonly user: string | undefined;
  /** Whether the message came over TLS (STARTTLS or implicit). */
  readonly secure: boolean;
}

export interface SmtpSinkOptions {
  auth?: { user: string; password: string };
  tls?: 'starttls' | 'implicit';
  /** Refuse every recipient as a mail server does an unknown mailbox: `550 5.1.1 <address>: Recipient address rejected`. */
  refuseRecipients?: boolean;
  /** Wait this long before greeting each connection: a slow mail server, for tests of what waits for a send. */
  greetingDelayMs?: number;
}

export interface SmtpSink {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** PEM of the self-signed certificate, with `tls`. */
  readonly certificate: string | undefined;
  messages(): readonly ReceivedMail[];
  logins(): readonly string[];
  waitForMessage(options: { to: string; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** The first sign-in link of a message's text (the Settings mail puts it on a line of its own). */
export function signInLinkIn(mail: ReceivedMail): string {
  const link = /https?:\/\/[^\s/]+\/settings\/sign-in\/link\?token=[^\s]+/.exec(mail.text)?.[0];
  if (link === undefined) throw new Error(`no sign-in link in the message "${mail.subject}":\n${mail.text}`);
  return link;
}

function selfSignedCertificate(): { key: string; cert: string } {
  const folder = tempDir('svc-smtp-tls-');
  const key = join(folder, 'key.pem');
  const cert = join(folder, 'cert.pem');
  try {
    execFileSync(
      'openssl',
      [
        'req',
        ...['-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'],
        ...['-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1', '-keyout', key, '-out', cert],
      ],
      { stdio: 'pipe' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  const logins: string[] = [];
  const handed = new Set<ReceivedMail>();
  const arrivals = new Set<() => void>();
  const certificate = options.tls ? selfSignedCertificate() : undefined;

  const server = new SMTPServer({
    secure: options.tls === 'implicit',
    ...(certificate ?? {}),
    disabledCommands: [...(options.tls === 'starttls' ? [] : ['STARTTLS']), ...(options.auth ? [] : ['AUTH'])],
    authOptional: !options.auth,
    // The sink takes AUTH over plain connections too: the service's SMTP_TLS=none against a loopback relay.
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(auth.username ?? '');
      const { user, password } = options.auth ?? {};
      if (auth.username === user && auth.password === password) callback(null, { user });
      else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onConnect(_session, callback) {
      setTimeout(callback, options.greetingDelayMs ?? 0);
    },
    onRcptTo(address, _session, callback) {
      if (!options.refuseRecipients) return callback();
      callback(Object.assign(new Error(`5.1.1 <${address.address}>: Recipient address rejected`), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        try {
          const parsed = await simpleParser(raw);
          received.push({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((recipient) => recipient.address.toLowerCase()),
            from: parsed.from?.text ?? '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            raw,
            user: session.user as string | undefined,
            secure: session.secure,
          });
          for (const arrived of arrivals) arrived();
          callback();
        } catch (error) {
          callback(error as Error);
        }
      });
    },
  });
  server.on('error', () => {
    // A client that drops its connection is the client's failure, not the sink's; the tests see it on their side.
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  const takeFor = (to: string) => {
    const mail = received.find((candidate) => !handed.has(candidate) && candidate.to.includes(to.toLowerCase()));
    if (mail) handed.add(mail);
    return mail;
  };

  return {
    host: '127.0.0.1',
    port,
    certificate: certificate?.cert,
    messages: () => [...received],
    logins: () => [...logins],
    waitForMessage({ to, timeoutMs = 10_000 }) {
      const now = takeFor(to);
      if (now) return Promise.resolve(now);
      return new Promise((resolve, reject) => {
        const arrived = () => {
          const mail = takeFor(to);
          if (!mail) return;
          clearTimeout(timer);
          arrivals.delete(arrived);
          resolve(mail);
        };
        const timer = setTimeout(() => {
          arrivals.delete(arrived);
          const seen = received.map((mail) => `${mail.to.join(', ')}: ${mail.subject}`).join('\n  ') || '(none)';
          reject(new Error(`no message to ${to} within ${timeoutMs} ms; received:\n  ${seen}`));
        }, timeoutMs);
        arrivals.add(arrived);
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
