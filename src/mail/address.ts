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

export function isMailAddress(value: string): boolean {
  return value.length <= 254 && ADDRESS.test(value);
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
