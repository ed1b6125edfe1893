/**
 * Sends one message through the Bun and Node SMTP transport (src/mail/smtp-node.ts), with the SMTP settings of
 * the environment: `bun test/support/send-mail.ts '<MailMessage as JSON>'`. Exit code 0 once the server has
 * accepted it; otherwise the error's message on stderr and exit code 1. Lets a test run the transport under Bun.
 */
import { readMailSettings } from '../../src/mail/config.ts';
import { createNodeSmtpMailer } from '../../src/mail/smtp-node.ts';

const settings = readMailSettings(process.env);
if (settings?.transport !== 'smtp') throw new Error('send-mail.ts needs SMTP settings (SMTP_HOST, MAIL_FROM, …) in the environment');
try {
  await createNodeSmtpMailer(settings.smtp).send(JSON.parse(process.argv[2]!));
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
