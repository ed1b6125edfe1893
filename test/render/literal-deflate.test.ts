import { inflateSync } from 'node:zlib';
import pako from 'pako';
import pakoAdler32 from 'pako/lib/zlib/adler32.js';
import { describe, expect, it } from 'vitest';
import { concatBytes } from '../../src/bytes.ts';
import { readFontFiles, readZlibModule } from '../../src/render/font-files.ts';
import { adler32, combinedAdler32, deflatePiece, partOf, storedPiece, zlibOfParts } from '../../src/render/pdf/deflate.ts';
import { LiteralCode } from '../../src/render/pdf/literal-deflate.ts';
import { instantiateZlib } from '../../src/render/pdf/zlib.ts';
import { sampleBytes } from '../support/sample-bytes.ts';

const inflatesTo = (stream: Uint8Array, whole: Uint8Array) => {
  expect(new Uint8Array(inflateSync(stream))).toEqual(whole);
  expect(new Uint8Array(pako.inflate(stream))).toEqual(whole);
};

describe('literal pieces of a zlib stream (issue 19)', () => {
  const zlib = instantiateZlib(readZlibModule());
  const binary = new LiteralCode(sampleBytes(20_000, 1), true);
  const text = new LiteralCode(new TextEncoder().encode('0123456789ABCDEF<> \nbeginbfchar endbfchar'), false);

  it('inflate, between pieces made otherwise, to the bytes they were made of: binary data, text, data with bytes the code has none for', () => {
    const entries = new TextEncoder().encode('2 beginbfchar\n<0061> <03B1>\n<0062> <0436>\nendbfchar\n');
    const outside = new TextEncoder().encode('<0061> <00E9> é ~');
    const parts = [
      partOf(sampleBytes(108, 2), storedPiece(sampleBytes(108, 2))),
      binary.part(sampleBytes(7_000, 3), zlib),
      partOf(sampleBytes(3_000, 4), deflatePiece(sampleBytes(3_000, 4))),
      text.part(entries, zlib),
      text.part(outside, zlib),
      binary.part(new Uint8Array(0), zlib),
    ];
    inflatesTo(zlibOfParts(parts), concatBytes([sampleBytes(108, 2), sampleBytes(7_000, 3), sampleBytes(3_000, 4), entries, outside]));
  });

  it('carry the Adler-32 of their bytes as an unsigned number, as zlib writes it', () => {
    const checksum = (bytes: Uint8Array) => pakoAdler32(1, bytes, bytes.length, 0) >>> 0;
    const samples = Array.from({ length: 8 }, (_, seed) => sampleBytes(3_000 + seed * 997, seed + 20));
    expect(samples.some((bytes) => checksum(bytes) >= 2 ** 31)).toBe(true);
    for (const bytes of samples) expect(binary.part(bytes, zlib).adler).toBe(checksum(bytes));
  });

  it('are stored blocks when the code would take more bytes than the data', () => {
    const few = Uint8Array.of(1, 2, 3);
    expect(binary.part(few, zlib)).toEqual(partOf(few, storedPiece(few)));
  });

  it('code a face’s glyph data smaller than stored blocks, within a few percent of pako’s fastest level', () => {
    const face = readFontFiles().regular;
    const code = new LiteralCode(face, true);
    const glyphs = face.subarray(40_000, 46_000);
    const { piece } = code.part(glyphs, zlib);
    expect(piece.length).toBeLessThan(glyphs.length * 0.9);
    expect(piece.length).toBeLessThan(deflatePiece(glyphs, 1).length * 1.2);
  });

  it('take the Adler-32 of their bytes as zlib does, over runs of any length and bytes all 0xFF (the largest sums)', () => {
    const checksum = (bytes: Uint8Array) => pakoAdler32(1, bytes, bytes.length, 0) >>> 0;
    for (const length of [0, 1, 2047, 2048, 2049, 5552, 140_000]) {
      for (const bytes of [sampleBytes(length, length), new Uint8Array(length).fill(0xff)]) expect(adler32(bytes)).toBe(checksum(bytes));
    }
  });

  it('combine Adler-32 checksums as one over the bytes end to end', () => {
    for (const [a, b] of [
      [sampleBytes(0, 5), sampleBytes(10, 6)],
      [sampleBytes(70_000, 7), sampleBytes(5_000, 8)],
      [sampleBytes(300, 9), sampleBytes(140_000, 10)],
    ] as const) {
      const whole = concatBytes([a, b]);
      const checksum = (bytes: Uint8Array) => pakoAdler32(1, bytes, bytes.length, 0) >>> 0;
      expect(combinedAdler32(checksum(a), checksum(b), b.length)).toBe(checksum(whole));
    }
  });
});
