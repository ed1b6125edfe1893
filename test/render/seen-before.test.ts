import { describe, expect, it } from 'vitest';
import { SeenBefore } from '../../src/render/seen-before.ts';

describe('SeenBefore', () => {
  it('answers false the first time a key comes and true every time after', () => {
    const seen = new SeenBefore(100);
    expect(seen.check('Acme Corporation')).toBe(false);
    expect(seen.check('Acme Corporation')).toBe(true);
    expect(seen.check('Acme Corporation')).toBe(true);
    expect(seen.check('Acme Corporation ')).toBe(false);
    expect(seen.check('')).toBe(false);
    expect(seen.check('')).toBe(true);
  });

  it('forgets every key at once when it holds its capacity, then remembers again', () => {
    const seen = new SeenBefore(3);
    for (const key of ['a', 'b', 'c']) expect(seen.check(key)).toBe(false);
    expect(seen.check('a')).toBe(true);
    expect(seen.check('d')).toBe(false);
    expect(seen.check('a')).toBe(false);
    expect(seen.check('a')).toBe(true);
    expect(seen.check('d')).toBe(true);
    expect(seen.check('b')).toBe(false);
  });

  it('with a document: only a sight in another document counts', () => {
    const seen = new SeenBefore(100);
    expect(seen.check('Platform subscription', 1)).toBe(false);
    expect(seen.check('Platform subscription', 1)).toBe(false);
    expect(seen.check('Platform subscription', 2)).toBe(true);
    expect(seen.check('Platform subscription', 1)).toBe(true);
  });
});
