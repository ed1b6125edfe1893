import nodemailer from 'nodemailer';
import { formatMailbox } from './address.ts';
import type { SmtpSettings } from './config.ts';
import type { Mailer } from './mailer.ts';
import { checkMessage, SMTP_TIMEOUT_MS, sendFailure } from './smtp.ts';

/**
 * SMTP on Bun and Node (nodemailer). `trustedCertificates` (PEM) adds certificate authorities to the system's,
 * for a server with a private certificate; the tests give the sink's self-signed one.
 */
export function createNodeSmtpMailer(settings: SmtpSettings, options: { trustedCertificates?: string } = {}): Mailer {
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.tls === 'implicit',
    // starttls: refuse to go on (and to send the password) when the server does not offer STARTTLS, rather than
    // nodemailer's default of carrying on in the clear.
    requireTLS: settings.tls === 'starttls',
    ignoreTLS: settings.tls === 'none',
    ...(settings.auth ? { auth: { user: settings.auth.user, pass: settings.auth.password } } : {}),
    ...(options.trustedCertificates ? { tls: { ca: [options.trustedCertificates] } } : {}),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(message) {
      checkMessage(message);
      try {
        await transport.sendMail({ from: formatMailbox(settings.from), to: message.to, subject: message.subject, text: message.text });
      } catch (error) {
        throw sendFailure(settings, error);
      }
    },
  };
}
