import { LogLevel, WorkerMailer } from 'worker-mailer';
import type { SmtpSettings } from './config.ts';
import type { Mailer } from './mailer.ts';
import { checkMessage, SMTP_TIMEOUT_MS, sendFailure } from './smtp.ts';

/** The parts of worker-mailer 1.2.1's session (dist/index.mjs) that tell whether STARTTLS happened. */
interface WorkerMailerSession {
  readonly startTls: boolean;
  readonly secure: boolean;
  readonly supportsStartTls: boolean;
  auth(): Promise<void>;
}

/**
 * worker-mailer upgrades with STARTTLS only when the server offers it and otherwise carries on in the clear, AUTH
 * included: a network path that strips the offer would read the password. Its session authenticates right after
 * the (possible) upgrade; here that step first refuses a session that asked for STARTTLS and did not get it, as
 * nodemailer's requireTLS does. The version is pinned; test/mail/smtp-worker.test.ts fails if this stops holding.
 */
const session = WorkerMailer.prototype as unknown as WorkerMailerSession;
const authenticate = session.auth;
session.auth = async function (this: WorkerMailerSession) {
  if (this.startTls && !this.secure && !this.supportsStartTls)
    throw new Error('the server does not offer STARTTLS (SMTP_TLS=starttls requires it)');
  return authenticate.call(this);
};

/**
 * SMTP on Workers: worker-mailer over the TCP sockets of `cloudflare:sockets` connect(), one connection per
 * message. Its log stays off: at debug level it would print the AUTH line, which carries the password.
 */
export function createWorkerSmtpMailer(settings: SmtpSettings): Mailer {
  return {
    async send(message) {
      checkMessage(message);
      try {
        await WorkerMailer.send(
          {
            host: settings.host,
            port: settings.port,
            secure: settings.tls === 'implicit',
            startTls: settings.tls === 'starttls',
            ...(settings.auth ? { credentials: { username: settings.auth.user, password: settings.auth.password } } : {}),
            authType: ['plain', 'login'],
            logLevel: LogLevel.NONE,
            socketTimeoutMs: SMTP_TIMEOUT_MS,
            responseTimeoutMs: SMTP_TIMEOUT_MS,
          },
          {
            from: { ...(settings.from.name ? { name: settings.from.name } : {}), email: settings.from.address },
            to: { email: message.to },
            subject: message.subject,
            text: message.text,
          },
        );
      } catch (error) {
        throw sendFailure(settings, error);
      }
    },
  };
}
