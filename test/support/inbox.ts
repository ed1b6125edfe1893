import type { Mailer, MailMessage } from '../../src/mail/mailer.ts';

/** The sign-in link on a line of its own in the mail's text (the page contract's form of it). */
const LINK_LINE = /^(https?:\/\/\S+\/settings\/sign-in\/link\?token=\S+)$/m;

export interface Inbox {
  /** Give this to createTestApp({ mailer }). */
  readonly mailer: Mailer;
  /** Every message sent so far, oldest first. */
  readonly messages: readonly MailMessage[];
  /** The sign-in link of the newest message to this address (letter case aside); throws when there is none. */
  linkFor(email: string): string;
}

/**
 * A mailer that keeps what it is given, for in-process tests. The one place tests read mail from, so that it
 * can be swapped for the real SMTP sink.
 */
export function createInbox(): Inbox {
  const messages: MailMessage[] = [];
  return {
    mailer: {
      async send(message) {
        messages.push(message);
      },
    },
    messages,
    linkFor(email) {
      const message = messages.findLast((sent) => sent.to.toLowerCase() === email.toLowerCase());
      const link = message && LINK_LINE.exec(message.text)?.[1];
      if (!link) throw new Error(`no sign-in link was sent to ${email}`);
      return link;
    },
  };
}
