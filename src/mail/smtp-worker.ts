import { LogLevel, WorkerMailer } from 'worker-mailer';
import type { SmtpSettings } from './config.ts';
import type { Mailer } from './mailer.ts';
import { checkMessage, SMTP_TIMEOUT_MS, sendFailure } from './smtp.ts';

/**
 * SMTP on Workers: worker-mailer over the TCP sockets of `cloudflare:sockets` connect(), one connection per
 * message. Its log stays off: at debug level it would print the AUTH line, which carries the password.
 * Unlike the nodemailer transport, worker-mailer upgrades with STARTTLS only when the server offers it (README:
 * prefer SMTP_TLS=implicit on port 465 on Workers).
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
