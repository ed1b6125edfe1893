/**
 * Bytes with the repeats a font or a content stream has (a third of them copied from up to 61 bytes back), the
 * same for the same length and seed: inputs for the compression tests.
 */
export function sampleBytes(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let state = seed;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    bytes[i] = i > 64 && state % 3 === 0 ? bytes[i - 1 - (state % 61)]! : state >>> 24;
  }
  return bytes;
}
