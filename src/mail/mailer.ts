/** One plain message: the Settings sign-in link is the only mail the service sends. */
export interface MailMessage {
  readonly to: string;
  readonly subject: string;
  readonly text: string;
}

/**
 * How the service sends mail: SMTP (nodemailer on Bun and Node, TCP sockets on Workers) or the development
 * transport that prints the message on the terminal. Resolves once the server has accepted the message.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
