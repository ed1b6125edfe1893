const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

/** Opaque request id: `req_` and 20 base32 characters (100 random bits). */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  let id = 'req_';
  for (const byte of bytes) id += ALPHABET[byte & 31];
  return id;
}
