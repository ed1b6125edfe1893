import { isMailAddress } from '../mail/address.ts';

/**
 * An account's address as it will be stored, or undefined when it is none the mail layer can send to (its one
 * check), or its domain has no dot (no host a customer's mail lives on). Settings' sign-up and the operator's
 * `accounts create` both take addresses through it, so every account can receive its sign-in links.
 */
export function readEmailAddress(text: string): string | undefined {
  const email = text.trim();
  return isMailAddress(email) && email.slice(email.lastIndexOf('@')).includes('.') ? email : undefined;
}
