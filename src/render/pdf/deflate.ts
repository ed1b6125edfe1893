import zlibDeflate from 'pako/lib/zlib/deflate.js';
import ZStream from 'pako/lib/zlib/zstream.js';
import { concatBytes } from '../../bytes.ts';

/**
 * Raw deflate pieces with pako, for the parts of font streams that are compressed once per process and copied
 * into every document (fonts/stable-subset.ts), and for literal-deflate.ts's rare fallback: a piece must end
 * with a sync flush, which libdeflate (zlib.ts: every stream a document compresses whole) does not write. One
 * deflate state is kept per level and reset for each call: pako's own `deflate` allocates a new state, about
 * 300 KB of window and hash tables, per call. Calls are synchronous, so renders never share a state at the same
 * time.
 */
const Z_SYNC_FLUSH = 2;
const Z_OK = 0;
const Z_BUF_ERROR = -5;
const Z_DEFLATED = 8;
const WINDOW_BITS = 15;
const MEMORY_LEVEL = 8;
const DEFAULT_STRATEGY = 0;
/** pako's (and zlib's) default level. */
const DEFAULT_LEVEL = 6;

const states = new Map<number, ZStream>();

const NO_HEADS = new Uint16Array(0);

/** The raw deflate state of a level, reset for a new piece. */
function resetState(level: number): ZStream {
  let state = states.get(level);
  if (!state) {
    state = new ZStream();
    zlibDeflate.deflateInit2(state, level, Z_DEFLATED, -WINDOW_BITS, MEMORY_LEVEL, DEFAULT_STRATEGY);
    states.set(level, state);
  }
  // deflateReset clears the 32K hash heads with a loop of JavaScript: it is given no heads to clear, and they
  // are cleared natively (fill) instead. Same state after.
  const { head } = state.state;
  state.state.head = NO_HEADS;
  zlibDeflate.deflateReset(state);
  state.state.head = head.fill(0);
  return state;
}

/**
 * `data` as raw deflate blocks ended by a sync flush (byte-aligned, not final), referring to nothing before it:
 * a piece that can stand anywhere in a deflate stream, so a piece that is the same in many streams is compressed
 * once and kept (zlibOfParts).
 */
export function deflatePiece(data: Uint8Array, level: number = DEFAULT_LEVEL): Uint8Array<ArrayBuffer> {
  const state = resetState(level);
  let output = new Uint8Array(data.length + (data.length >> 3) + 64);
  Object.assign(state, { input: data, next_in: 0, avail_in: data.length, output, next_out: 0, avail_out: output.length });
  for (;;) {
    const status = zlibDeflate.deflate(state, Z_SYNC_FLUSH);
    if (status !== Z_OK && status !== Z_BUF_ERROR) throw new Error(`deflate failed with status ${status}`);
    if (state.avail_in === 0 && state.avail_out > 0) break;
    if (state.avail_out === 0) {
      const larger = new Uint8Array(output.length * 2);
      larger.set(output);
      output = larger;
      Object.assign(state, { output, avail_out: output.length - state.next_out });
    }
  }
  const written = state.next_out;
  Object.assign(state, { input: null, output: null });
  return output.slice(0, written);
}

/** Most bytes a stored block holds (RFC 1951 3.2.4). */
const STORED_BLOCK_BYTES = 0xffff;

/**
 * `data` as stored (uncompressed) blocks, a piece like deflatePiece's: for the few bytes of a document's own
 * that cost more time to compress (pako does some 30 MB/s) than their size would gain.
 */
export function storedPiece(data: Uint8Array): Uint8Array<ArrayBuffer> {
  const blocks = Math.max(1, Math.ceil(data.length / STORED_BLOCK_BYTES));
  const out = new Uint8Array(data.length + blocks * 5);
  let at = 0;
  for (let block = 0; block < blocks; block++) {
    const part = data.subarray(block * STORED_BLOCK_BYTES, (block + 1) * STORED_BLOCK_BYTES);
    out.set([0x00, part.length & 0xff, part.length >> 8, ~part.length & 0xff, (~part.length >> 8) & 0xff], at);
    out.set(part, at + 5);
    at += 5 + part.length;
  }
  return out;
}

const ZLIB_HEADER = Uint8Array.of(0x78, 0x9c);
/** An empty final block with the fixed codes: what ends a stream whose blocks all came before. */
const FINAL_EMPTY_BLOCK = Uint8Array.of(0x03, 0x00);

const ADLER_BASE = 65521;

/**
 * Bytes summed before the sums are reduced: the second sum stays below 2^31 (zlib reduces every 5552 bytes, in
 * unsigned 32 bits), so the engines keep both as small integers.
 */
const ADLER_RUN = 2048;

/**
 * The Adler-32 of `data` (RFC 1950 8.2). pako's, which pako's deflate also calls with its own arrays, ran at a
 * third of this speed in Node on the bytes of each new font subset.
 */
export function adler32(data: Uint8Array): number {
  let sum1 = 1;
  let sum2 = 0;
  for (let at = 0; at < data.length; ) {
    const end = Math.min(at + ADLER_RUN, data.length);
    for (; at < end; at++) {
      sum1 += data[at]!;
      sum2 += sum1;
    }
    sum1 %= ADLER_BASE;
    sum2 %= ADLER_BASE;
  }
  return ((sum2 << 16) | sum1) >>> 0;
}

/** The Adler-32 of two byte strings end to end from the checksums of each (zlib's adler32_combine). */
export function combinedAdler32(first: number, second: number, secondLength: number): number {
  const remainder = secondLength % ADLER_BASE;
  let sum1 = first & 0xffff;
  let sum2 = (remainder * sum1) % ADLER_BASE;
  sum1 += (second & 0xffff) + ADLER_BASE - 1;
  sum2 += ((first >>> 16) & 0xffff) + ((second >>> 16) & 0xffff) + ADLER_BASE - remainder;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum1 >= ADLER_BASE) sum1 -= ADLER_BASE;
  if (sum2 >= ADLER_BASE * 2) sum2 -= ADLER_BASE * 2;
  if (sum2 >= ADLER_BASE) sum2 -= ADLER_BASE;
  return ((sum2 << 16) | sum1) >>> 0;
}

/** A piece of a zlib stream with what it holds: its bytes' length and Adler-32 (kept with a piece made once). */
export interface ZlibPart {
  readonly piece: Uint8Array;
  readonly length: number;
  readonly adler: number;
}

/** A part of `data` compressed into `piece`. */
export const partOf = (data: Uint8Array, piece: Uint8Array): ZlibPart => ({
  piece,
  length: data.length,
  adler: adler32(data),
});

/**
 * A zlib stream of the parts one after the other, its checksum combined from the parts' own: the bytes of a part
 * made once are not read again per document.
 */
export function zlibOfParts(parts: readonly ZlibPart[]): Uint8Array<ArrayBuffer> {
  let adler = 1;
  for (const part of parts) adler = combinedAdler32(adler, part.adler, part.length);
  const checksum = new Uint8Array(4);
  new DataView(checksum.buffer).setUint32(0, adler);
  return concatBytes([ZLIB_HEADER, ...parts.map((part) => part.piece), FINAL_EMPTY_BLOCK, checksum]);
}
