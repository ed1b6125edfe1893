import * as v from 'valibot';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { LIMITS } from '../contract/limits.ts';

/** What a key is made of: visible ASCII characters (published in the OpenAPI document as the header's pattern). */
export const IDEMPOTENCY_KEY_TEXT = /^[\x21-\x7e]+$/;

/** A value inside double quotes is read without them (section 4.2): they are not part of the key. */
const unquoted = (raw: string) => (raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw);

/** An Idempotency-Key header value to its key: 1 to 255 visible ASCII characters, quotes taken off. */
export const IDEMPOTENCY_KEY = v.pipe(
  v.string(),
  v.transform(unquoted),
  v.string(),
  v.minLength(1),
  v.maxLength(LIMITS.idempotencyKeyChars),
  v.regex(IDEMPOTENCY_KEY_TEXT),
);

/** The refusal of a header value that is no key. */
export function invalidIdempotencyKey(): ApiError {
  return new ApiError('invalid_request', {
    detail: 'invalid_idempotency_key',
    field: HEADERS.idempotencyKey,
    message: `${HEADERS.idempotencyKey} is 1 to ${LIMITS.idempotencyKeyChars} visible ASCII characters.`,
  });
}

/**
 * The key of an Idempotency-Key header value (section 4.2): 1 to 255 visible ASCII characters; a double-quoted
 * value is read without the quotes. Undefined when the header is absent (null).
 */
export function readIdempotencyKey(raw: string | null): string | undefined {
  if (raw === null) return undefined;
  const read = v.safeParse(IDEMPOTENCY_KEY, raw);
  if (!read.success) throw invalidIdempotencyKey();
  return read.output;
}
