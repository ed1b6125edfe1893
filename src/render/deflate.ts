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

const states = new Map<string, ZStream>();

function stateFor(level: number, raw: boolean): ZStream {
  const key = `${level}${raw ? 'r' : 'z'}`;
  let state = states.get(key);
  if (!state) {
    state = new ZStream();
    zlibDeflate.deflateInit2(state, level, Z_DEFLATED, raw ? -WINDOW_BITS : WINDOW_BITS, MEMORY_LEVEL, DEFAULT_STRATEGY);
    states.set(key, state);
  }
  return state;
}

function run(state: ZStream, data: Uint8Array, flush: number): Uint8Array<ArrayBuffer> {
  zlibDeflate.deflateReset(state);
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
export function deflate(data: Uint8Array, level: number = DEFAULT_LEVEL): Uint8Array<ArrayBuffer> {
  return run(stateFor(level, false), data, Z_FINISH);
}

/**
 * `data` as raw deflate blocks ended by a sync flush (byte-aligned, not final), referring to nothing before it:
 * a piece that can stand anywhere in a deflate stream, so a piece that is the same in many streams is compressed
 * once and kept (zlibOfPieces).
 */
export function deflatePiece(data: Uint8Array, level: number = DEFAULT_LEVEL): Uint8Array<ArrayBuffer> {
  return run(stateFor(level, true), data, Z_SYNC_FLUSH);
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

/**
 * A zlib stream of the pieces (deflatePiece, storedPiece) one after the other; `whole` is what they hold, end to end, for the
 * stream's Adler-32 checksum.
 */
export function zlibOfPieces(pieces: readonly Uint8Array[], whole: Uint8Array): Uint8Array<ArrayBuffer> {
  const checksum = new Uint8Array(4);
  new DataView(checksum.buffer).setUint32(0, adler32(1, whole, whole.length, 0) >>> 0);
  return concatBytes([ZLIB_HEADER, ...pieces, FINAL_EMPTY_BLOCK, checksum]);
}
