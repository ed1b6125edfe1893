import { newId } from '../ids.ts';

/** Opaque request id: `req_` and 20 base32 characters (100 random bits). */
export function newRequestId(): string {
  return newId('req');
}
