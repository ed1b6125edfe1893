/**
 * zlib streams compressed by libdeflate compiled to WebAssembly (native/zlib.wasm, built from native/zlib.c by
 * scripts/build-deflate-wasm.sh): the same wasm code, so the same bytes, on Bun, Node and workerd, and two to
 * four times as fast as pako on a document's streams. The caller hands over the compiled module (Node/Bun:
 * font-files.ts readZlibModule; the Worker imports the .wasm file, which Wrangler compiles at deploy time).
 */

/** native/zlib.c's exports; pointers are offsets into `memory`. */
interface ZlibExports {
  readonly memory: WebAssembly.Memory;
  compressor(level: number): number;
  scratch(size: number): number;
  zlib_bound(compressor: number, length: number): number;
  zlib_compress(compressor: number, input: number, length: number, output: number, capacity: number): number;
  keep_bytes(size: number): number;
  adler32(input: number, length: number): number;
  literal_block(input: number, length: number, codes: number, output: number, bits: number, count: number): number;
}

/**
 * libdeflate's level for every stream of a PDF, chosen on the reference invoices' streams (content streams, the
 * object stream, the cross-reference stream). On the 50-line invoice's 58 KB of them, level 5 (lazy matching)
 * writes 10.8 KB in 40% of the time pako's tuned level 5 took for 11.6 KB; level 4 is 15% faster and 6% larger,
 * level 6 35% slower and 1% smaller. On script faces' subsets levels 5 and 6 differ by less than 0.2%.
 */
const ZLIB_LEVEL = 5;

/** Most bytes a block of literals adds after its codes: the end of block, padding and the sync flush. */
const LITERAL_BLOCK_END_BYTES = 16;

export interface Zlib {
  /** The zlib stream (RFC 1950) of `data`. */
  compress(data: Uint8Array): Uint8Array<ArrayBuffer>;
  /**
   * A deflate piece of one block of literals (literal-deflate.ts) and the Adler-32 of `data`: the block's `header`
   * (its bytes, and the `bits` and `count` of bits it left over), each byte of `data` as its code from `codes` (per
   * byte value the code's bits in the low 16 and its length above, 0 for a byte without a code; index 256 the end
   * of the block), then a sync flush. Undefined when a byte of `data` has no code.
   */
  literalBlock(
    data: Uint8Array,
    codes: Uint32Array,
    header: Uint8Array,
    bits: number,
    count: number,
  ): { piece: Uint8Array<ArrayBuffer>; adler: number } | undefined;
  /**
   * The bytes of the instance's memory: the compressor and a scratch area that every call reuses, grown to fit
   * the largest stream compressed so far (WebAssembly memory never shrinks), never per call.
   */
  memoryBytes(): number;
}

/** Instantiates the compressor from its compiled module; one instance serves every render of a font set. */
export function instantiateZlib(module: WebAssembly.Module): Zlib {
  const zlib = new WebAssembly.Instance(module, {}).exports as unknown as ZlibExports;
  const compressor = zlib.compressor(ZLIB_LEVEL);
  if (compressor === 0) throw new RangeError('zlib: no memory for the compressor');
  // Each code table copied into the instance's memory once (the tables live as long as the process).
  const codeTables = new WeakMap<Uint32Array, number>();
  /** `data` copied into the scratch area with `capacity` bytes after it for what is written from it: where it starts. */
  const placed = (data: Uint8Array, capacity: number): number => {
    const input = zlib.scratch(data.length + capacity);
    if (input === 0) throw new RangeError(`zlib: out of memory for ${data.length} bytes`);
    // A view made after scratch(), which may have grown the memory and so detached the buffer seen before.
    new Uint8Array(zlib.memory.buffer, input, data.length).set(data);
    return input;
  };
  return {
    compress(data) {
      const capacity = zlib.zlib_bound(compressor, data.length);
      const input = placed(data, capacity);
      const output = input + data.length;
      const length = zlib.zlib_compress(compressor, input, data.length, output, capacity);
      if (length === 0) throw new Error(`zlib: a stream of ${data.length} bytes did not fit its bound`);
      return new Uint8Array(zlib.memory.buffer, output, length).slice();
    },
    literalBlock(data, codes, header, bits, count) {
      let table = codeTables.get(codes);
      if (table === undefined) {
        table = zlib.keep_bytes(codes.byteLength);
        if (table === 0) throw new RangeError('zlib: no memory for a code table');
        new Uint32Array(zlib.memory.buffer, table, codes.length).set(codes);
        codeTables.set(codes, table);
      }
      // A code is at most 15 bits: two bytes a byte at most, then the block's end and the sync flush.
      const input = placed(data, header.length + data.length * 2 + LITERAL_BLOCK_END_BYTES);
      const output = input + data.length;
      const memory = new Uint8Array(zlib.memory.buffer);
      memory.set(header, output);
      const written = zlib.literal_block(input, data.length, table, output + header.length, bits, count);
      if (written === 0) return undefined;
      return { piece: memory.slice(output, output + header.length + written), adler: zlib.adler32(input, data.length) >>> 0 };
    },
    memoryBytes: () => zlib.memory.buffer.byteLength,
  };
}
