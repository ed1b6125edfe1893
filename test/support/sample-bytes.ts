/**
 * Bytes from a 32-bit linear congruential generator's top byte, the same for the same length and seed: inputs for the
 * compression tests. With `repeats`, as a font or a content stream has them (a third of the bytes copied from up to
 * 61 bytes back); without, none for a compressor to find.
 */
export function sampleBytes(length: number, seed: number, repeats = true): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = repeats && i > 64 && state % 3 === 0 ? bytes[i - 1 - (state % 61)]! : state >>> 24;
  }
  return bytes;
}
