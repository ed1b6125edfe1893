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

/** A random id such as `acct_…`: the prefix and 20 base32 characters (100 bits). */
export function newId(prefix: string): string {
  return `${prefix}_${base32(crypto.getRandomValues(new Uint8Array(13))).slice(0, 20)}`;
}
