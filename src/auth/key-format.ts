import { sha256Hex } from '../hash.ts';
import { BASE32_ALPHABET, base32 } from '../ids.ts';

/**
 * Live keys look like `svc_live_` + 32 base32 characters of randomness (160 bits) + 7 characters of CRC-32
 * over everything before them. A mistyped or foreign key (such as `sk_live_…`) fails the format or the
 * checksum and is refused without a database look-up.
 */
const KEY_PREFIX = 'svc_live_';
const RANDOM_CHARS = 32;
const CHECKSUM_CHARS = 7;
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[${BASE32_ALPHABET}]{${RANDOM_CHARS + CHECKSUM_CHARS}}$`);
/** Characters of the key kept for display as `key.prefix`: the prefix and 4 random characters (20 bits). */
const DISPLAY_CHARS = KEY_PREFIX.length + 4;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) crc = CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(body: string): string {
  let value = crc32(body);
  let out = '';
  for (let i = 0; i < CHECKSUM_CHARS; i++) {
    out = BASE32_ALPHABET[value & 31] + out;
    value = Math.floor(value / 32);
  }
  return out;
}

export function generateKey(): string {
  const body = KEY_PREFIX + base32(crypto.getRandomValues(new Uint8Array(20)));
  return body + checksum(body);
}

export function isWellFormedKey(key: string): boolean {
  if (!KEY_PATTERN.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_CHARS);
  return checksum(body) === key.slice(-CHECKSUM_CHARS);
}

export function displayPrefix(key: string): string {
  return key.slice(0, DISPLAY_CHARS);
}

/** Keys carry 160 random bits, so one SHA-256 is a safe stored form; a slow hash would add nothing. */
export function hashKey(key: string): string {
  return sha256Hex(key);
}
