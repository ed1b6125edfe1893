import { inflateSync } from 'node:zlib';
import pako from 'pako';
import { describe, expect, it } from 'vitest';
import { readZlibModule } from '../../src/render/font-files.ts';
import { instantiateZlib } from '../../src/render/pdf/zlib.ts';
import { sampleBytes } from '../support/sample-bytes.ts';

const zlib = instantiateZlib(readZlibModule());

const INPUTS = {
  empty: new Uint8Array(0),
  'one byte': Uint8Array.of(0x42),
  'random, 70 KB': sampleBytes(70_000, 1, false),
  'repetitive, 70 KB': new TextEncoder().encode('BT /F1 9 Tf 1 0 0 1 56.7 700.2 Tm [(Consulting)] TJ ET\n'.repeat(1_250)),
  'repeats as a font has, 300 KB': sampleBytes(300_000, 2),
};

describe('zlib streams compressed by libdeflate in WebAssembly', () => {
  it.each(Object.entries(INPUTS))('inflates back to its input (%s), with pako and with zlib', (_, input) => {
    const stream = zlib.compress(input);
    expect(new Uint8Array(pako.inflate(stream))).toEqual(input);
    expect(new Uint8Array(inflateSync(stream))).toEqual(input);
  });

  it('compresses what repeats: a content stream to a fraction of its size, random bytes to little more than theirs', () => {
    expect(zlib.compress(INPUTS['repetitive, 70 KB']).length).toBeLessThan(1_000);
    expect(zlib.compress(INPUTS['random, 70 KB']).length).toBeLessThan(70_000 * 1.01);
  });

  it('gives the same bytes call after call and from another instance, whatever was compressed before', () => {
    const inputs = Object.values(INPUTS);
    const first = inputs.map((input) => zlib.compress(input));
    const other = instantiateZlib(readZlibModule());
    for (const [index, input] of [...inputs.entries()].reverse()) {
      expect(zlib.compress(input)).toEqual(first[index]);
      expect(other.compress(input)).toEqual(first[index]);
    }
  });

  it('grows its memory to fit the largest stream once, and reuses it for every later call', () => {
    const fresh = instantiateZlib(readZlibModule());
    const large = sampleBytes(1_000_000, 3);
    fresh.compress(large);
    const grown = fresh.memoryBytes();
    expect(grown).toBeGreaterThan(2 * large.length);
    for (let call = 0; call < 10; call++) fresh.compress(call % 2 ? large : INPUTS['random, 70 KB']);
    expect(fresh.memoryBytes()).toBe(grown);
  });
});
