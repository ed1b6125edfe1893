const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Crockford-style base32 (no i, l, o, u) of the given bytes, 5 bits a character. */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

export const BASE32_ALPHABET = ALPHABET;

/** How many characters follow an id's prefix. */
const ID_CHARACTERS = 20;

/** A random id such as `acct_…`: the prefix and 20 base32 characters (100 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${base32(crypto.getRandomValues(new Uint8Array(13))).slice(0, ID_CHARACTERS)}`;
}

const TIME_CHARACTERS = 10;

/**
 * An id such as `doc_…` that sorts by when it was made, to the millisecond: the prefix, `now` (milliseconds, below
 * 2^50) in 10 base32 characters, then 10 random ones (50 bits), as long as newId's. A table keyed by such ids grows
 * at its end: an insert writes the key's last page, which every insert writes, rather than a page anywhere in it,
 * one more page for the WAL and its checkpoints (issue 19, measured in docs/scaling.md).
 */
export function newTimeOrderedId(prefix: string, now: number): string {
  let time = '';
  for (let rest = now, index = 0; index < TIME_CHARACTERS; index++, rest = Math.floor(rest / 32)) time = ALPHABET[rest % 32] + time;
  return `${prefix}_${time}${base32(crypto.getRandomValues(new Uint8Array(7))).slice(0, ID_CHARACTERS - TIME_CHARACTERS)}`;
}
