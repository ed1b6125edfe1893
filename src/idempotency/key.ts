import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { LIMITS } from '../contract/limits.ts';

/** What a key is made of: visible ASCII characters (published in the OpenAPI document as the header's pattern). */
export const IDEMPOTENCY_KEY_TEXT = /^[\x21-\x7e]+$/;

/**
 * The key of an Idempotency-Key header value (section 4.2): 1 to 255 visible ASCII characters; a double-quoted
 * value is read without the quotes. Undefined when the header is absent (null).
 */
export function readIdempotencyKey(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  const value = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  if (value.length > LIMITS.idempotencyKeyChars || !IDEMPOTENCY_KEY_TEXT.test(value)) {
    throw new ApiError('invalid_request', {
      detail: 'invalid_idempotency_key',
      field: HEADERS.idempotencyKey,
      message: `${HEADERS.idempotencyKey} is 1 to ${LIMITS.idempotencyKeyChars} visible ASCII characters.`,
    });
  }
  return value;
}
