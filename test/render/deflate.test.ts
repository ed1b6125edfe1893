import { inflateSync } from 'node:zlib';
import pako from 'pako';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/bytes.ts';
import { deflatePiece, partOf, storedPiece, zlibOfParts } from '../../src/render/pdf/deflate.ts';
import { sampleBytes } from '../support/sample-bytes.ts';

describe('deflate pieces with a kept state (issue 19)', () => {
  it('gives the same piece call after call, at each level, whatever the call before compressed, and the piece inflates back', () => {
    const inputs = [sampleBytes(70_000, 1), sampleBytes(0, 2), sampleBytes(300, 3), sampleBytes(40_000, 4), sampleBytes(300, 3)];
    for (const level of [1, 6] as const) {
      const first = inputs.map((input) => deflatePiece(input, level));
      for (const [index, input] of [...inputs.entries()].reverse()) {
        expect(deflatePiece(input, level)).toEqual(first[index]);
        expect(new Uint8Array(pako.inflateRaw(first[index]!))).toEqual(input);
      }
    }
  });

  it('makes a zlib stream of pieces compressed apart or stored (more than a stored block holds) that inflates to the pieces end to end', () => {
    const parts = [sampleBytes(108, 5), sampleBytes(50_000, 6), sampleBytes(0, 7), sampleBytes(2_000, 8), sampleBytes(70_000, 9)];
    const whole = concatBytes(parts);
    const stream = zlibOfParts(parts.map((part, index) => partOf(part, index % 2 ? deflatePiece(part) : storedPiece(part))));
    expect(new Uint8Array(inflateSync(stream))).toEqual(whole);
    expect(new Uint8Array(pako.inflate(stream))).toEqual(whole);
  });
});
