import { describe, expect, it } from 'vitest';
import { AsciiBuffer } from '../../src/render/ascii-buffer.ts';

describe('AsciiBuffer.integer', () => {
  it('writes a non-negative integer as String does (object numbers, offsets, MCIDs)', () => {
    const values = [0, 7, 9, 10, 99, 100, 1234, 65535, 1_000_000, 4_294_967_295];
    const out = new AsciiBuffer();
    for (const value of values) {
      out.integer(value);
      out.text(' ');
    }
    expect(out.string(0, out.length)).toBe(values.map((value) => `${value} `).join(''));
  });
});
