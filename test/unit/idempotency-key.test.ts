import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/contract/api-error.ts';
import { readIdempotencyKey } from '../../src/idempotency/key.ts';

/**
 * Section 4.2: 1 to 255 visible ASCII characters; a double-quoted value is read without the quotes. Each value
 * goes through a Request's headers, as the route reads it.
 */
const withKey = (value: string | undefined) =>
  new Request('http://svc.test/api/v1/documents', {
    method: 'POST',
    headers: value === undefined ? {} : { 'Idempotency-Key': value },
  }).headers.get('Idempotency-Key');

function refusal(value: string): ApiError {
  try {
    readIdempotencyKey(withKey(value));
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error(`${JSON.stringify(value)} was accepted`);
}

describe('readIdempotencyKey', () => {
  it('is undefined without the header', () => {
    expect(readIdempotencyKey(withKey(undefined))).toBeUndefined();
  });

  it('reads a plain value as it is', () => {
    expect(readIdempotencyKey(withKey('abc'))).toBe('abc');
    expect(readIdempotencyKey(withKey('order-2026/10/01#7'))).toBe('order-2026/10/01#7');
  });

  it('reads a double-quoted value without its quotes, so "abc" and abc are one key', () => {
    expect(readIdempotencyKey(withKey('"abc"'))).toBe('abc');
    expect(readIdempotencyKey(withKey('"a"'))).toBe('a');
    expect(readIdempotencyKey(withKey('"abc"'))).toBe(readIdempotencyKey(withKey('abc')));
  });

  it('keeps a quote that does not enclose the value: a lone quote, or one at one end only, is part of the key', () => {
    expect(readIdempotencyKey(withKey('"'))).toBe('"');
    expect(readIdempotencyKey(withKey('"abc'))).toBe('"abc');
    expect(readIdempotencyKey(withKey('abc"'))).toBe('abc"');
    expect(readIdempotencyKey(withKey('a"b'))).toBe('a"b');
  });

  it('strips one pair of quotes only', () => {
    expect(readIdempotencyKey(withKey('""abc""'))).toBe('"abc"');
  });

  it('takes every visible ASCII character, from ! to ~', () => {
    const visible = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).join('');
    expect(readIdempotencyKey(withKey(visible))).toBe(visible);
  });

  it('takes 1 and 255 characters, plain or quoted', () => {
    expect(readIdempotencyKey(withKey('k'))).toBe('k');
    expect(readIdempotencyKey(withKey('k'.repeat(255)))).toBe('k'.repeat(255));
    expect(readIdempotencyKey(withKey(`"${'k'.repeat(255)}"`))).toBe('k'.repeat(255));
  });

  it.each([
    ['empty', ''],
    ['empty between quotes', '""'],
    ['256 characters', 'k'.repeat(256)],
    ['256 characters between quotes', `"${'k'.repeat(256)}"`],
    ['a space inside', 'a b'],
    ['a space inside quotes', '" "'],
    ['non-ASCII', 'caf\u00e9'],
    ['DEL', 'a\u007f'],
  ])('refuses %s with 400 invalid_request / invalid_idempotency_key, naming the header', (_, value) => {
    const error = refusal(value);
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_request');
    expect(error.details).toEqual([expect.objectContaining({ code: 'invalid_idempotency_key', field: 'Idempotency-Key' })]);
    expect(error.message).toContain('1 to 255');
  });
});
