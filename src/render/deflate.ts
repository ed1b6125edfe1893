import adler32 from 'pako/lib/zlib/adler32.js';
import zlibDeflate from 'pako/lib/zlib/deflate.js';
import ZStream from 'pako/lib/zlib/zstream.js';
import { concatBytes } from '../bytes.ts';

/**
 * Deflate with pako (the same bytes on Bun, Node and workerd, which a native zlib would not promise), keeping one
 * deflate state per level and kind and resetting it for each call. pako's own `deflate` allocates a new state per
 * call, about 300 KB of window and hash tables: with a content stream per page and a font file and a ToUnicode map
 * per font, that was most of what a render allocated, and the garbage collections it caused were the render
 * bench's tail. Calls are synchronous, so renders never share a state at the same time.
 */
const Z_SYNC_FLUSH = 2;
const Z_FINISH = 4;
const Z_OK = 0;
const Z_STREAM_END = 1;
const Z_BUF_ERROR = -5;
const Z_DEFLATED = 8;
const WINDOW_BITS = 15;
const MEMORY_LEVEL = 8;
const DEFAULT_STRATEGY = 0;
/** pako's (and zlib's) default level: what a font file or a ToUnicode map is compressed with. */
export const DEFAULT_LEVEL = 6;

/**
 * A level with its match search set by hand (zlib's deflate_slow parameters, as its deflateTune sets them): the
 * lazy levels' search with a chain between those of levels 4 and 5.
 */
export interface DeflateTuning {
  /** A lazy level (4 to 9), whose parameters the rest replace. */
  readonly level: number;
  readonly goodLength: number;
  readonly maxLazy: number;
  readonly niceLength: number;
  readonly maxChain: number;
}

/**
 * The tuning of the streams a document writes of its own (content streams and the object stream, mostly
 * operators and structure elements, rebuilt for every document): level 5's lazy matching (16) and nice length
 * (32), with level 4's good length (4) and a chain of 12 instead of 32. On the 50-line reference invoice its
 * object stream compresses 25% faster than with level 5, for 71 bytes more, and its content streams as fast as
 * with level 4 and 167 bytes smaller.
 */
export const DOCUMENT_STREAMS: DeflateTuning = { level: 5, goodLength: 4, maxLazy: 16, niceLength: 32, maxChain: 12 };

const states = new Map<string, ZStream>();

function stateFor(level: number, raw: boolean, key: string): ZStream {
  let state = states.get(key);
  if (!state) {
    state = new ZStream();
    zlibDeflate.deflateInit2(state, level, Z_DEFLATED, raw ? -WINDOW_BITS : WINDOW_BITS, MEMORY_LEVEL, DEFAULT_STRATEGY);
    states.set(key, state);
  }
  return state;
}

const NO_HEADS = new Uint16Array(0);

/** The state of a level or a tuning, reset for a new stream. */
function resetState(level: number | DeflateTuning, raw: boolean): ZStream {
  const tuning = typeof level === 'number' ? undefined : level;
  const base = tuning ? tuning.level : (level as number);
  const key = `${raw ? 'r' : 'z'}${base}${tuning ? ` ${tuning.goodLength} ${tuning.maxLazy} ${tuning.niceLength} ${tuning.maxChain}` : ''}`;
  const state = stateFor(base, raw, key);
  // deflateReset clears the 32K hash heads with a loop of JavaScript, a tenth of a millisecond per render over
  // its streams: it is given no heads to clear, and they are cleared natively (fill) instead. Same state after.
  const { head } = state.state;
  state.state.head = NO_HEADS;
  zlibDeflate.deflateReset(state);
  state.state.head = head.fill(0);
  if (tuning) {
    Object.assign(state.state, {
      good_match: tuning.goodLength,
      max_lazy_match: tuning.maxLazy,
      nice_match: tuning.niceLength,
      max_chain_length: tuning.maxChain,
    });
  }
  return state;
}

function run(state: ZStream, data: Uint8Array, flush: number): Uint8Array<ArrayBuffer> {
  let output = new Uint8Array(data.length + (data.length >> 3) + 64);
  Object.assign(state, { input: data, next_in: 0, avail_in: data.length, output, next_out: 0, avail_out: output.length });
  for (;;) {
    const status = zlibDeflate.deflate(state, flush);
    if (status !== Z_OK && status !== Z_STREAM_END && status !== Z_BUF_ERROR) throw new Error(`deflate failed with status ${status}`);
    const done = flush === Z_FINISH ? status === Z_STREAM_END : state.avail_in === 0 && state.avail_out > 0;
    if (done) break;
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

/** A zlib stream of `data` (RFC 1950): the same bytes as `pako.deflate(data, { level })`. */
export function deflate(data: Uint8Array, level: number | DeflateTuning = DEFAULT_LEVEL): Uint8Array<ArrayBuffer> {
  return run(resetState(level, false), data, Z_FINISH);
}

/**
 * `data` as raw deflate blocks ended by a sync flush (byte-aligned, not final), referring to nothing before it:
 * a piece that can stand anywhere in a deflate stream, so a piece that is the same in many streams is compressed
 * once and kept (zlibOfParts).
 */
export function deflatePiece(data: Uint8Array, level: number = DEFAULT_LEVEL): Uint8Array<ArrayBuffer> {
  return run(resetState(level, true), data, Z_SYNC_FLUSH);
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
  adler: adler32(1, data, data.length, 0) >>> 0,
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
