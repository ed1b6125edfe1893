import { describe, expect, it } from 'vitest';
import { BASE32_ALPHABET, newId, newTimeOrderedId } from '../../src/ids.ts';

const FORM = new RegExp(`^doc_[${BASE32_ALPHABET}]{20}$`);

describe('newTimeOrderedId', () => {
  it('sorts as the times it was made with, across carries of its base32 digits, up to 2^50 − 1 ms', () => {
    const times = [0, 1, 31, 32, 1_023, 1_024, 32 ** 5 - 1, 32 ** 5, Date.parse('2026-11-26T00:00:00Z'), 32 ** 9 - 1, 32 ** 9, 2 ** 50 - 1];
    const ids = times.map((time) => newTimeOrderedId('doc', time));
    for (const id of ids) expect(id).toMatch(FORM);
    expect([...ids].sort()).toEqual(ids);
  });

  it('tells apart ids of the same millisecond by its random part', () => {
    const now = Date.parse('2026-11-26T00:00:00Z');
    const ids = Array.from({ length: 1_000 }, () => newTimeOrderedId('doc', now));
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.map((id) => id.slice(0, 14))).size).toBe(1);
  });

  it('has the form of a random id', () => {
    expect(newId('doc')).toMatch(FORM);
  });
});
