/** A mailbox: the address, and the display name of a `Name <address>` form. */
export interface Mailbox {
  readonly name: string | undefined;
  readonly address: string;
}

/**
 * A plain `local@domain` address: no spaces, angle brackets, quotes or line breaks, so that it can be written into
 * an SMTP command and a header as it is (a line break there would let a value add commands or headers).
 */
const ADDRESS = /^[^\s@<>"(),;:\\[\]]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
/** Control characters (NUL, DEL, C1 such as NEL): the pattern above does not count them as spaces. */
const CONTROL = /\p{Cc}/u;
/** The longest address SMTP carries (RFC 5321 path limit less its brackets). */
export const MAIL_ADDRESS_MAX_CHARS = 254;

/** The one address check: MAIL_FROM, every recipient, and the addresses Settings accepts. */
export function isMailAddress(value: string): boolean {
  return value.length <= MAIL_ADDRESS_MAX_CHARS && ADDRESS.test(value) && !CONTROL.test(value);
}

/** `address` or `Name <address>`; undefined when the value is neither (a name with quotes or brackets included). */
export function parseMailbox(value: string): Mailbox | undefined {
  const trimmed = value.trim();
  const named = /^([^<>"\r\n]*?)\s*<([^<>]*)>$/.exec(trimmed);
  const name = named?.[1]?.trim();
  const address = named ? named[2]!.trim() : trimmed;
  if (!isMailAddress(address)) return undefined;
  return { name: name || undefined, address };
}

/** The mailbox as a header writes it; the name is quoted, having no quote of its own to escape. */
export function formatMailbox(mailbox: Mailbox): string {
  return mailbox.name ? `"${mailbox.name}" <${mailbox.address}>` : mailbox.address;
}
