import { deflatePiece, partOf, storedPiece, type ZlibPart } from './deflate.ts';
import type { Zlib } from './zlib.ts';

/**
 * Deflate pieces of literals alone (RFC 1951 3.2.7: one block with Huffman codes made for its own bytes, no
 * repeated strings looked for), for the few kilobytes a document adds to a font of its own (glyph data, metrics,
 * ToUnicode entries). Glyph data has few repeats: pako's fastest level makes it 9% smaller than literals alone do,
 * but looking for them (with a hash table of 64 KB to clear per call) is most of what a new glyph set cost a render,
 * where counting bytes and writing their codes is a fraction of it. The piece ends like deflatePiece's (a sync
 * flush), so it stands anywhere among the pieces of a zlib stream. The code is made here; the bytes are coded in
 * native/zlib.c (literal_block).
 */

const END_OF_BLOCK = 256;
const LITERAL_CODES = 257;
const MAX_CODE_BITS = 15;
const MAX_CODE_LENGTH_BITS = 7;
/** The order the code lengths of the code-length alphabet are written in (RFC 1951 3.2.7). */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];
const REPEAT_ZERO_3_TO_10 = 17;
const REPEAT_ZERO_11_TO_138 = 18;

/**
 * Huffman code lengths for the frequencies, none longer than `limit`; 0 for a symbol that never occurs. Ties go
 * to the lower symbol, so the lengths are a function of the frequencies alone. A code too long for the limit is
 * made again from flattened frequencies (halved, the rare ones kept at 1).
 */
export function codeLengths(frequencies: ArrayLike<number>, limit: number): Uint8Array {
  const symbols = frequencies.length;
  let weights = Float64Array.from(frequencies);
  for (;;) {
    // The symbols that occur by weight, then symbol: one number each, sorted as numbers.
    const keys = new Float64Array(weights.filter((w) => w > 0).length);
    let present = 0;
    for (let symbol = 0; symbol < symbols; symbol++) if (weights[symbol]! > 0) keys[present++] = weights[symbol]! * symbols + symbol;
    const leaves = Array.from(keys.sort(), (key) => key % symbols);
    const lengths = new Uint8Array(symbols);
    if (leaves.length === 1) {
      lengths[leaves[0]!] = 1;
      return lengths;
    }
    // Two queues, the leaves by weight and the merged nodes in the order made (their weights never fall): the
    // two lightest fronts merge until one node is left. Node i < leaves.length is leaf i; parents are kept.
    const count = leaves.length;
    const weight = new Float64Array(2 * count - 1);
    const parent = new Int32Array(2 * count - 1);
    leaves.forEach((symbol, index) => {
      weight[index] = weights[symbol]!;
    });
    let leaf = 0;
    let merged = count;
    for (let made = count; made < 2 * count - 1; made++) {
      const take = () => (leaf < count && (merged >= made || weight[leaf]! <= weight[merged]!) ? leaf++ : merged++);
      const a = take();
      const b = take();
      weight[made] = weight[a]! + weight[b]!;
      parent[a] = made;
      parent[b] = made;
    }
    const depth = new Uint8Array(2 * count - 1);
    let longest = 0;
    for (let node = 2 * count - 3; node >= 0; node--) {
      depth[node] = depth[parent[node]!]! + 1;
      if (node < count) {
        lengths[leaves[node]!] = depth[node]!;
        longest = Math.max(longest, depth[node]!);
      }
    }
    if (longest <= limit) return lengths;
    weights = weights.map((w) => (w > 0 ? Math.max(1, Math.floor(w / 2)) : 0));
  }
}

/** The canonical codes of the lengths (RFC 1951 3.2.2), bit-reversed, since deflate writes a code from its first bit. */
function reversedCodes(lengths: Uint8Array): Uint16Array {
  const counts = new Uint16Array(MAX_CODE_BITS + 1);
  for (const length of lengths) counts[length]!++;
  counts[0] = 0;
  const next = new Uint16Array(MAX_CODE_BITS + 1);
  for (let bits = 1, code = 0; bits <= MAX_CODE_BITS; bits++) {
    code = (code + counts[bits - 1]!) << 1;
    next[bits] = code;
  }
  const codes = new Uint16Array(lengths.length);
  lengths.forEach((length, symbol) => {
    if (length === 0) return;
    let code = next[length]!++;
    let reversed = 0;
    for (let bit = 0; bit < length; bit++, code >>= 1) reversed = (reversed << 1) | (code & 1);
    codes[symbol] = reversed;
  });
  return codes;
}

/** Bits a writer holds that make no whole byte yet, and the bytes before them: where a piece's header leaves it. */
interface BitsWritten {
  readonly bytes: Uint8Array;
  readonly buffer: number;
  readonly count: number;
}

/** Bits written from the first (least significant) bit of each byte, as deflate packs them. */
class BitWriter {
  readonly bytes: Uint8Array<ArrayBuffer>;
  private at = 0;
  private buffer = 0;
  private count = 0;

  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }

  /** What has been written so far. */
  written(): BitsWritten {
    return { bytes: this.bytes.slice(0, this.at), buffer: this.buffer, count: this.count };
  }

  write(value: number, bits: number): void {
    this.buffer |= value << this.count;
    this.count += bits;
    while (this.count >= 8) {
      this.bytes[this.at++] = this.buffer & 0xff;
      this.buffer >>>= 8;
      this.count -= 8;
    }
  }
}

/** The code lengths of the literal alphabet and of the distance alphabet as the code-length alphabet's symbols. */
function codeLengthSymbols(lengths: readonly number[]): { symbol: number; extra: number; extraBits: number }[] {
  const symbols: { symbol: number; extra: number; extraBits: number }[] = [];
  for (let i = 0; i < lengths.length; ) {
    let run = 1;
    while (lengths[i] === 0 && i + run < lengths.length && lengths[i + run] === 0 && run < 138) run++;
    if (lengths[i] === 0 && run >= 11) symbols.push({ symbol: REPEAT_ZERO_11_TO_138, extra: run - 11, extraBits: 7 });
    else if (lengths[i] === 0 && run >= 3) symbols.push({ symbol: REPEAT_ZERO_3_TO_10, extra: run - 3, extraBits: 3 });
    else {
      run = 1;
      symbols.push({ symbol: lengths[i]!, extra: 0, extraBits: 0 });
    }
    i += run;
  }
  return symbols;
}

/**
 * A Huffman code for the bytes of one kind of data (the glyph data of a face, ToUnicode maps), made once from a
 * sample of it, every byte value counted at least once so that any data can be coded: a piece costs coding its
 * bytes alone, no code made per piece. Literals coded for the kind's frequencies come within a few percent of a
 * code made for the piece's own.
 */
export class LiteralCode {
  /**
   * Per byte value (and 256, the end of the block) its code's bits and, above bit 16, its length: 0 for a byte
   * without a code (Zlib.literalBlock).
   */
  private readonly coded: Uint32Array;
  /** The block's header (its type and its codes' description), written once: every piece starts with it. */
  private readonly header: BitsWritten;

  constructor(sample: Uint8Array, everyByte: boolean) {
    const frequencies = new Float64Array(LITERAL_CODES).fill(everyByte ? 1 : 0);
    frequencies[END_OF_BLOCK] = 1;
    for (let i = 0; i < sample.length; i++) frequencies[sample[i]!]!++;
    const lengths = codeLengths(frequencies, MAX_CODE_BITS);
    const codes = reversedCodes(lengths);
    this.coded = Uint32Array.from({ length: LITERAL_CODES }, (_, symbol) => (lengths[symbol]! << 16) | codes[symbol]!);
    // No string repeats, so no distance is ever coded; two distance codes of one bit, as zlib writes then, make a
    // complete code that every inflater takes.
    const symbols = codeLengthSymbols([...lengths, 1, 1]);
    const lengthFrequencies = new Uint32Array(CODE_LENGTH_ORDER.length);
    for (const { symbol } of symbols) lengthFrequencies[symbol]!++;
    const lengthLengths = codeLengths(lengthFrequencies, MAX_CODE_LENGTH_BITS);
    const lengthCodes = reversedCodes(lengthLengths);
    let written = CODE_LENGTH_ORDER.length;
    while (written > 4 && lengthLengths[CODE_LENGTH_ORDER[written - 1]!] === 0) written--;
    const header = [
      { code: 0b100, bits: 3 }, // not the last block; dynamic Huffman codes
      { code: LITERAL_CODES - 257, bits: 5 },
      { code: 2 - 1, bits: 5 },
      { code: written - 4, bits: 4 },
      ...CODE_LENGTH_ORDER.slice(0, written).map((symbol) => ({ code: lengthLengths[symbol]!, bits: 3 })),
      ...symbols.flatMap(({ symbol, extra, extraBits }) => [
        { code: lengthCodes[symbol]!, bits: lengthLengths[symbol]! },
        { code: extra, bits: extraBits },
      ]),
    ];
    const writer = new BitWriter(Math.ceil(header.reduce((sum, { bits }) => sum + bits, 0) / 8));
    for (const { code, bits } of header) writer.write(code, bits);
    this.header = writer.written();
  }

  /**
   * `data` as a part of a zlib stream like deflatePiece's: one block of literals, ended by a sync flush, coded in
   * `zlib`'s WebAssembly (four times the speed of the JavaScript loop it replaced, with the Adler-32 taken there
   * too); or stored blocks when those are no larger (a few bytes, which the code's description would outweigh).
   */
  part(data: Uint8Array, zlib: Zlib): ZlibPart {
    const { bytes, buffer, count } = this.header;
    const coded = zlib.literalBlock(data, this.coded, bytes, buffer, count);
    if (!coded) return partOf(data, deflatePiece(data, 1));
    const piece = coded.piece.length < data.length + 5 ? coded.piece : storedPiece(data);
    return { piece, length: data.length, adler: coded.adler };
  }
}
