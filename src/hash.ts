/** Lower-case hex SHA-256 of bytes or of a text's UTF-8, with WebCrypto (the same in Bun, Node and workerd). */
export async function sha256Hex(input: Uint8Array<ArrayBuffer> | string): Promise<string> {
  const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input;
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}
