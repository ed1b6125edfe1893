import { formatMailbox, type Mailbox } from './address.ts';
import type { Mailer } from './mailer.ts';
import { checkMessage } from './smtp.ts';

/** The line the server prints once at start, and each printed message repeats. */
export const CONSOLE_TRANSPORT_WARNING =
  'MAIL_TRANSPORT=console: mail is printed on this terminal and NOT sent. For local development only; configure SMTP for a deployment.';

const RULE = '='.repeat(72);

/**
 * The development transport: the message as a block of plain lines on stderr (console.warn: Bun and Node write
 * it there, wrangler dev shows it as a warning), so that a developer can follow a sign-in link without an SMTP
 * server. The block is never one JSON line, so that it cannot be mistaken for (or parsed as) the request log on stdout.
 */
export function createConsoleMailer(from: Mailbox | undefined, print: (block: string) => void = (block) => console.warn(block)): Mailer {
  return {
    async send(message) {
      checkMessage(message);
      const lines = [
        RULE,
        `mail (development transport) -- ${CONSOLE_TRANSPORT_WARNING}`,
        ...(from ? [`From:    ${formatMailbox(from)}`] : []),
        `To:      ${message.to}`,
        `Subject: ${message.subject}`,
        '',
        message.text,
        RULE,
      ];
      print(lines.join('\n'));
    },
  };
}
