import { inflateSync } from 'node:zlib';
import pako from 'pako';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/bytes.ts';
import { DOCUMENT_STREAMS, deflate, deflatePiece, partOf, storedPiece, zlibOfParts } from '../../src/render/deflate.ts';

/** Bytes with the repeats a font or a content stream has, of a length and seed of their own. */
function sample(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = i > 64 && state % 3 === 0 ? bytes[i - 1 - (state % 61)]! : state >>> 24;
  }
  return bytes;
}

describe('deflate with a kept state (issue 19)', () => {
  it('gives the bytes pako.deflate gives, call after call, at each level, whatever the call before compressed', () => {
    const inputs = [sample(70_000, 1), sample(0, 2), sample(300, 3), sample(40_000, 4), sample(300, 3)];
    for (const level of [1, 4, 5, 6] as const) {
      for (const input of inputs) expect(deflate(input, level)).toEqual(pako.deflate(input, { level }));
    }
  });

  it('compresses with a tuning to a stream that inflates back, the same bytes every call, leaving its base level as pako has it', () => {
    const elements = Array.from({ length: 800 }, (_, index) => `<</S/TD/P ${300 + (index >> 2)} 0 R/Pg 20 0 R/K ${index}>>\n`);
    const inputs = [new TextEncoder().encode(elements.join('')), sample(500, 11)];
    const first = inputs.map((input) => deflate(input, DOCUMENT_STREAMS));
    for (const [index, input] of inputs.entries()) {
      expect(new Uint8Array(inflateSync(first[index]!))).toEqual(input);
      expect(deflate(input, DOCUMENT_STREAMS.level)).toEqual(pako.deflate(input, { level: 5 }));
      expect(deflate(input, DOCUMENT_STREAMS)).toEqual(first[index]);
    }
    // A shorter chain than level 5's: a stream of its own, not level 5's under another name.
    expect(first[0]).not.toEqual(pako.deflate(inputs[0]!, { level: 5 }));
  });

  it('makes a zlib stream of pieces compressed apart or stored (more than a stored block holds) that inflates to the pieces end to end', () => {
    const parts = [sample(108, 5), sample(50_000, 6), sample(0, 7), sample(2_000, 8), sample(70_000, 9)];
    const whole = concatBytes(parts);
    const stream = zlibOfParts(parts.map((part, index) => partOf(part, index % 2 ? deflatePiece(part) : storedPiece(part))));
    expect(new Uint8Array(inflateSync(stream))).toEqual(whole);
    expect(new Uint8Array(pako.inflate(stream))).toEqual(whole);
  });
});
