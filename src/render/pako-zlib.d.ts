/**
 * Typings of pako 1.0.11's zlib port (@types/pako covers only its wrapper): the parts src/render/pdf/deflate.ts uses
 * to keep one deflate state and reset it, where the wrapper allocates a new one (about 300 KB) per call. Here, not
 * beside deflate.ts, as tsconfig.worker.json names this path.
 */
declare module 'pako/lib/zlib/zstream.js' {
  export default class ZStream {
    input: Uint8Array | null;
    next_in: number;
    avail_in: number;
    output: Uint8Array | null;
    next_out: number;
    avail_out: number;
    /** The deflate state: its hash heads, which deflate.ts clears itself. */
    state: { head: Uint16Array };
  }
}

declare module 'pako/lib/zlib/deflate.js' {
  import type ZStream from 'pako/lib/zlib/zstream.js';

  interface ZlibDeflate {
    deflateInit2(strm: ZStream, level: number, method: number, windowBits: number, memLevel: number, strategy: number): number;
    deflateReset(strm: ZStream): number;
    deflate(strm: ZStream, flush: number): number;
  }
  const zlibDeflate: ZlibDeflate;
  export default zlibDeflate;
}

declare module 'pako/lib/zlib/adler32.js' {
  export default function adler32(adler: number, buf: Uint8Array, len: number, pos: number): number;
}
