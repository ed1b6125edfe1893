import { inflateSync } from 'node:zlib';
import pako from 'pako';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/bytes.ts';
import { DOCUMENT_STREAMS, deflate, deflatePiece, partOf, storedPiece, zlibOfParts } from '../../src/render/deflate.ts';
import { sampleBytes } from '../support/sample-bytes.ts';

describe('deflate with a kept state (issue 19)', () => {
  it('gives the bytes pako.deflate gives, call after call, at each level, whatever the call before compressed', () => {
    const inputs = [sampleBytes(70_000, 1), sampleBytes(0, 2), sampleBytes(300, 3), sampleBytes(40_000, 4), sampleBytes(300, 3)];
    for (const level of [1, 4, 5, 6] as const) {
      for (const input of inputs) expect(deflate(input, level)).toEqual(pako.deflate(input, { level }));
    }
  });

  it('compresses with a tuning to a stream that inflates back, the same bytes every call, leaving its base level as pako has it', () => {
    const elements = Array.from({ length: 800 }, (_, index) => `<</S/TD/P ${300 + (index >> 2)} 0 R/Pg 20 0 R/K ${index}>>\n`);
    const inputs = [new TextEncoder().encode(elements.join('')), sampleBytes(500, 11)];
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
    const parts = [sampleBytes(108, 5), sampleBytes(50_000, 6), sampleBytes(0, 7), sampleBytes(2_000, 8), sampleBytes(70_000, 9)];
    const whole = concatBytes(parts);
    const stream = zlibOfParts(parts.map((part, index) => partOf(part, index % 2 ? deflatePiece(part) : storedPiece(part))));
    expect(new Uint8Array(inflateSync(stream))).toEqual(whole);
    expect(new Uint8Array(pako.inflate(stream))).toEqual(whole);
  });
});
