/**
 * A Worker for test/mail/smtp-worker.test.ts: each POST sends one message through the Workers SMTP transport
 * (src/mail/smtp-worker.ts) with the settings of its vars, and answers 204, or 502 with the error's message.
 * Started by `wrangler dev --local -c test/support/mail-worker.toml`.
 */
import { readMailSettings } from '../../src/mail/config.ts';
import type { MailMessage } from '../../src/mail/mailer.ts';
import { createWorkerSmtpMailer } from '../../src/mail/smtp-worker.ts';

export default {
  async fetch(request: Request, env: Record<string, unknown>): Promise<Response> {
    if (request.method !== 'POST') return new Response('ready');
    const settings = readMailSettings(env);
    if (settings?.transport !== 'smtp') return new Response('no SMTP settings', { status: 500 });
    try {
      await createWorkerSmtpMailer(settings.smtp).send((await request.json()) as MailMessage);
      return new Response(null, { status: 204 });
    } catch (error) {
      return new Response((error as Error).message, { status: 502 });
    }
  },
};
