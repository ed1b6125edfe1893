/** workerd provides node:crypto under the nodejs_compat flag (wrangler.toml); the part of it the service uses. */
declare module 'node:crypto' {
  interface Hash {
    update(data: Uint8Array | string): Hash;
    digest(encoding: 'hex'): string;
  }
  export function createHash(algorithm: 'sha256'): Hash;
  export function createHmac(algorithm: 'sha256', key: string): Hash;
  export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean;
}
