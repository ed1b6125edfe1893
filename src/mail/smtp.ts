import { isMailAddress } from './address.ts';
import type { SmtpSettings } from './config.ts';
import type { MailMessage } from './mailer.ts';

/**
 * How long one step may wait (the connection, the greeting, each answer): the send runs after the sign-in page's
 * answer, and an SMTP server that does not answer must become a logged error, not a task a graceful stop (or a
 * Worker's waitUntil) waits on for ever.
 */
export const SMTP_TIMEOUT_MS = 15_000;

/**
 * Refuses a message a header or an SMTP command could not carry as it is: the recipient comes from a form, and a
 * line break in it (or in the subject) would add headers or commands.
 */
export function checkMessage(message: MailMessage): void {
  if (!isMailAddress(message.to)) throw new Error('The recipient is not a plain email address; nothing was sent.');
  if (/[\r\n]/.test(message.subject)) throw new Error('The subject has a line break; nothing was sent.');
}

/** Every form in which the password could travel on the wire, or be quoted back by a server. */
function secretsOf(settings: SmtpSettings): string[] {
  if (!settings.auth) return [];
  const { user, password } = settings.auth;
  // btoa over the UTF-8 bytes: the same code runs on workerd, which has no Buffer without nodejs_compat.
  const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
  return [password, base64(password), base64(`\0${user}\0${password}`), encodeURIComponent(password)];
}

/** Anything shaped like an address: servers quote the recipient back (`550 5.1.1 <ada@example.com>: …`). */
const QUOTED_ADDRESS = /[^\s<>"',;:()[\]]+@[^\s<>"',;:()[\]]+/g;

/**
 * The error a send failure becomes: the server and the first line of the reason, with the password (and its
 * encodings) cut out whatever the client library wrote, so that it never reaches a log or a page, and every
 * address too, so that the log never names who asked for a sign-in link.
 */
export function sendFailure(settings: SmtpSettings, error: unknown): Error {
  let reason = error instanceof Error ? error.message : String(error);
  for (const secret of secretsOf(settings)) if (secret) reason = reason.split(secret).join('<redacted>');
  const firstLine = reason.split(/\r?\n/, 1)[0]!.replace(QUOTED_ADDRESS, 'address').trim() || 'no reason given';
  return new Error(
    `Could not send mail through the SMTP server ${settings.host}:${settings.port} (SMTP_TLS=${settings.tls}): ${firstLine}`,
  );
}
