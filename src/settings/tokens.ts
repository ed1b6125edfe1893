import { sha256Hex } from '../hash.ts';

const TOKEN_BYTES = 32;
/** 32 bytes in base64url without padding: 43 characters. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A secret for a sign-in link or a session cookie: 256 random bits, base64url. */
export function newToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(TOKEN_BYTES));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** What a presented token must look like before it is looked up at all. */
export function isTokenShaped(text: string): boolean {
  return TOKEN_SHAPE.test(text);
}

/** The stored form of a token. 256 random bits need no slow hash: one SHA-256 cannot be reversed. */
export function hashToken(token: string): string {
  return sha256Hex(token);
}
