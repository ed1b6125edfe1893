import { concatBytes } from '../../bytes.ts';

/**
 * The parts of a TrueType file the PDF needs, read once per process, and a subsetter that writes a new font
 * holding only the glyphs a document uses, renumbered from 0. fontkit maps characters to glyphs; this module
 * copies glyph outlines, which is what makes a per-document subset cheap.
 */

interface TableRecord {
  offset: number;
  length: number;
}

export interface TrueTypeFile {
  bytes: Uint8Array;
  view: DataView;
  tables: Map<string, TableRecord>;
  unitsPerEm: number;
  numGlyphs: number;
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  /** Advance width of each glyph in font units. */
  advances: Uint16Array;
  /** Left side bearing of each glyph in font units. */
  leftBearings: Int16Array;
  /** Offset of each glyph in `glyf` (numGlyphs + 1 entries). */
  glyphOffsets: Uint32Array;
  /** Where the glyf table starts in `bytes`. */
  glyphData: number;
}

function table(tables: Map<string, TableRecord>, tag: string): TableRecord {
  const record = tables.get(tag);
  if (!record) throw new Error(`font has no ${tag} table`);
  return record;
}

export function readTrueType(source: Uint8Array): TrueTypeFile {
  // A plain Uint8Array, whose slice() copies (a Node Buffer's is a view, which the subsetter's writes would
  // corrupt). A view of part of a buffer (a Buffer from the shared pool) is copied, since the subsetter's
  // DataViews read from the buffer's start; a font that has its buffer to itself is not (a CJK face is 20 MB).
  const ownsBuffer = source.byteOffset === 0 && source.byteLength === source.buffer.byteLength;
  const bytes = ownsBuffer ? new Uint8Array(source.buffer) : Uint8Array.from(source);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, TableRecord>();
  const numTables = view.getUint16(4);
  for (let i = 0; i < numTables; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
    tables.set(tag, { offset: view.getUint32(at + 8), length: view.getUint32(at + 12) });
  }
  for (const [tag, { offset, length }] of tables) {
    if (offset + length > bytes.length) throw new Error(`font file cut short: its ${tag} table ends past its end`);
  }
  const head = table(tables, 'head').offset;
  const hhea = table(tables, 'hhea').offset;
  const numGlyphs = view.getUint16(table(tables, 'maxp').offset + 4);
  const longLoca = view.getInt16(head + 50) === 1;
  const os2 = tables.get('OS/2');

  const numberOfHMetrics = view.getUint16(hhea + 34);
  const hmtx = table(tables, 'hmtx').offset;
  const advances = new Uint16Array(numGlyphs);
  const leftBearings = new Int16Array(numGlyphs);
  for (let gid = 0; gid < numGlyphs; gid++) {
    if (gid < numberOfHMetrics) {
      advances[gid] = view.getUint16(hmtx + gid * 4);
      leftBearings[gid] = view.getInt16(hmtx + gid * 4 + 2);
    } else {
      advances[gid] = advances[numberOfHMetrics - 1]!;
      leftBearings[gid] = view.getInt16(hmtx + numberOfHMetrics * 4 + (gid - numberOfHMetrics) * 2);
    }
  }
  const loca = table(tables, 'loca').offset;
  const glyphOffsets = new Uint32Array(numGlyphs + 1);
  for (let gid = 0; gid <= numGlyphs; gid++) {
    glyphOffsets[gid] = longLoca ? view.getUint32(loca + gid * 4) : view.getUint16(loca + gid * 2) * 2;
  }

  return {
    bytes,
    view,
    tables,
    unitsPerEm: view.getUint16(head + 18),
    numGlyphs,
    bbox: [view.getInt16(head + 36), view.getInt16(head + 38), view.getInt16(head + 40), view.getInt16(head + 42)],
    ascent: view.getInt16(hhea + 4),
    descent: view.getInt16(hhea + 6),
    capHeight: os2 && os2.length >= 90 ? view.getInt16(os2.offset + 88) : view.getInt16(hhea + 4),
    advances,
    leftBearings,
    glyphOffsets,
    glyphData: table(tables, 'glyf').offset,
  };
}

const ARG_1_AND_2_ARE_WORDS = 0x0001;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

/**
 * The offsets found by the last componentOffsets call, reused: it runs for every glyph of every new subset. A typed
 * array: emptying a JavaScript array (`length = 0`) gave back its storage, and the next push made new, for every
 * glyph.
 */
let componentAt: Uint32Array = new Uint32Array(16);

/**
 * The offset of each component's glyph index in a composite glyph (none for a simple glyph), in componentAt, which
 * the next call overwrites; how many. A callback per glyph, a closure over the caller's state, was garbage for every
 * glyph.
 */
function componentOffsets(font: TrueTypeFile, gid: number): number {
  const start = font.glyphData + font.glyphOffsets[gid]!;
  const end = font.glyphData + font.glyphOffsets[gid + 1]!;
  if (end - start < 10 || font.view.getInt16(start) >= 0) return 0;
  let count = 0;
  let at = start + 10;
  for (;;) {
    const flags = font.view.getUint16(at);
    componentAt = withRoom(componentAt, count + 1);
    componentAt[count++] = at + 2;
    at += 4 + (flags & ARG_1_AND_2_ARE_WORDS ? 4 : 2);
    if (flags & WE_HAVE_A_SCALE) at += 2;
    else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) at += 4;
    else if (flags & WE_HAVE_A_TWO_BY_TWO) at += 8;
    if (!(flags & MORE_COMPONENTS)) return count;
  }
}

/**
 * An array with an entry per glyph of `font`, one per font in `arrays`, made once and reused by every call: its users
 * write the entries of one glyph set and read only those, synchronously, where an array per set (as long as the font
 * has glyphs: 128 KB for the CJK face) was garbage.
 */
export function perGlyph<T>(arrays: WeakMap<TrueTypeFile, T>, font: TrueTypeFile, make: (glyphs: number) => T): T {
  let array = arrays.get(font);
  if (array === undefined) {
    array = make(font.numGlyphs);
    arrays.set(font, array);
  }
  return array;
}

/**
 * A mark per glyph of a font (perGlyph), set while closeGlyphSet gathers a set and cleared before it returns: a Set
 * per call was most of what closing a document's glyphs cost.
 */
const gatheredMarks = new WeakMap<TrueTypeFile, Uint8Array>();

/**
 * closeGlyphSet's glyphs still to look at, and those gathered, reused by every call and grown to the largest set:
 * arrays grown by push and emptied by pop gave back and took storage for every glyph.
 */
let pendingGlyphs: Uint32Array = new Uint32Array(256);
let gatheredGlyphs: Uint32Array = new Uint32Array(256);

/** `array` with room for `length` entries: itself, or a copy twice as long. */
function withRoom(array: Uint32Array, length: number): Uint32Array {
  if (length <= array.length) return array;
  const larger = new Uint32Array(Math.max(length, array.length * 2));
  larger.set(array);
  return larger;
}

/** Glyph 0 first, then the used glyphs and every component they are built from, in original order. */
export function closeGlyphSet(font: TrueTypeFile, used: Iterable<number>): number[] {
  const gathered = perGlyph(gatheredMarks, font, (glyphs) => new Uint8Array(glyphs));
  let pending = 0;
  for (const gid of used) {
    pendingGlyphs = withRoom(pendingGlyphs, pending + 1);
    pendingGlyphs[pending++] = gid;
  }
  gathered[0] = 1;
  gatheredGlyphs[0] = 0;
  let count = 1;
  try {
    while (pending > 0) {
      const gid = pendingGlyphs[--pending]!;
      if (gathered[gid]) continue;
      gathered[gid] = 1;
      gatheredGlyphs = withRoom(gatheredGlyphs, count + 1);
      gatheredGlyphs[count++] = gid;
      const components = componentOffsets(font, gid);
      pendingGlyphs = withRoom(pendingGlyphs, pending + components);
      for (let place = 0; place < components; place++) pendingGlyphs[pending++] = font.view.getUint16(componentAt[place]!);
    }
  } finally {
    // Cleared even when a glyph cannot be read, or the next set of this font would lose the glyphs marked here.
    for (let index = 0; index < count; index++) gathered[gatheredGlyphs[index]!] = 0;
  }
  const closed = gatheredGlyphs.subarray(0, count).sort();
  // A loop, not Array.from, which takes a typed array through its iterator: an object per glyph.
  const glyphs: number[] = [];
  for (let index = 0; index < count; index++) glyphs.push(closed[index]!);
  return glyphs;
}

/** The sum of the big-endian 32-bit words of `bytes` from `offset` (OpenType's table checksum); `length` a multiple of 4. */
function checksum(bytes: Uint8Array, offset: number, length: number): number {
  let sum = 0;
  for (let i = offset; i < offset + length; i += 4) {
    sum = (sum + (((bytes[i]! << 24) | (bytes[i + 1]! << 16) | (bytes[i + 2]! << 8) | bytes[i + 3]!) >>> 0)) >>> 0;
  }
  return sum;
}

const pad4 = (n: number) => (n + 3) & ~3;

/** The largest glyph data offset the short loca format holds (offsets are stored halved, in 16 bits). */
const MAX_SHORT_LOCA_OFFSET = 0xffff * 2;

/** Bytes of glyph data the glyphs take in a subset's glyf table, each padded to 4 bytes. */
export function glyphDataLength(font: TrueTypeFile, glyphs: readonly number[], from = 0): number {
  let length = 0;
  for (let index = from; index < glyphs.length; index++)
    length += pad4(font.glyphOffsets[glyphs[index]! + 1]! - font.glyphOffsets[glyphs[index]!]!);
  return length;
}

/**
 * A glyph id per glyph of a font (perGlyph), for subsetTrueType to write the new ids of a subset's glyphs into;
 * entries of other glyphs are left from earlier subsets, and never read (a subset holds the components of its
 * glyphs).
 */
const newIdArrays = new WeakMap<TrueTypeFile, Uint16Array>();

/**
 * The glyphs a subset starts with when they are the same in many subsets (pdf/fonts/stable-subset.ts), their parts
 * of the subset written and checksummed once (knownGlyphs): how many glyphs, the length (a multiple of 4) and
 * checksum of their glyph data, and their entries in hmtx and in a short loca, copied into each subset as they are.
 */
export interface KnownGlyphData {
  readonly glyphs: number;
  readonly length: number;
  readonly checksum: number;
  readonly metrics: Uint8Array;
  readonly shortOffsets: Uint8Array;
}

const NO_KNOWN_GLYPH_DATA: KnownGlyphData = {
  glyphs: 0,
  length: 0,
  checksum: 0,
  metrics: new Uint8Array(0),
  shortOffsets: new Uint8Array(0),
};

/**
 * A subset font file but the known glyph data it starts with: its table directory, and what follows the known glyph
 * data (the rest of the glyph data, then the other tables); `length` is the whole file's.
 */
export interface SubsetFile {
  readonly directory: Uint8Array;
  readonly rest: Uint8Array;
  readonly length: number;
}

/** The checksum of a table's bytes (OpenType: the sum of its 32-bit words); `bytes` padded to 4 bytes. */
export const tableChecksum = (bytes: Uint8Array) => checksum(bytes, 0, bytes.length);

/** Writes the hmtx entries of `glyphs` from index `from` into `out` at `at` (4 bytes per glyph, from glyph 0). */
function writeMetrics(font: TrueTypeFile, glyphs: readonly number[], from: number, out: Uint8Array, at: number): void {
  for (let index = from; index < glyphs.length; index++) {
    const gid = glyphs[index]!;
    const advance = font.advances[gid]!;
    const bearing = font.leftBearings[gid]! & 0xffff;
    const place = at + index * 4;
    out[place] = advance >> 8;
    out[place + 1] = advance & 0xff;
    out[place + 2] = bearing >> 8;
    out[place + 3] = bearing & 0xff;
  }
}

/**
 * Writes the loca entries of `glyphs` from index `from` (whose glyph data starts at `offset`) and the end entry into
 * `out` at `at`, halved in 16 bits when `short`, else in 32.
 */
function writeOffsets(
  font: TrueTypeFile,
  glyphs: readonly number[],
  from: number,
  offset: number,
  short: boolean,
  out: Uint8Array,
  at: number,
): void {
  const entry = (index: number, value: number) => {
    if (short) {
      out[at + index * 2] = value >> 9;
      out[at + index * 2 + 1] = (value >> 1) & 0xff;
    } else {
      const place = at + index * 4;
      out[place] = value >>> 24;
      out[place + 1] = (value >> 16) & 0xff;
      out[place + 2] = (value >> 8) & 0xff;
      out[place + 3] = value & 0xff;
    }
  };
  let end = offset;
  for (let index = from; index < glyphs.length; index++) {
    entry(index, end);
    end += pad4(font.glyphOffsets[glyphs[index]! + 1]! - font.glyphOffsets[glyphs[index]!]!);
  }
  entry(glyphs.length, end);
}

/**
 * The subset of `glyphs` (glyph 0 first), their parts of every subset that starts with them, and their glyph data,
 * which the caller writes into the font file once (see KnownGlyphData).
 */
export function knownGlyphs(
  font: TrueTypeFile,
  glyphs: readonly number[],
): { subset: SubsetFile; known: KnownGlyphData; glyphData: Uint8Array } {
  const subset = subsetTrueType(font, glyphs);
  const length = glyphDataLength(font, glyphs);
  const glyphData = subset.rest.slice(0, length);
  const metrics = new Uint8Array(glyphs.length * 4);
  writeMetrics(font, glyphs, 0, metrics, 0);
  // The entries of the glyphs alone, without the end entry writeOffsets adds (the start of the glyphs after them).
  const offsets = new Uint8Array((glyphs.length + 1) * 2);
  writeOffsets(font, glyphs, 0, 0, true, offsets, 0);
  const known = {
    glyphs: glyphs.length,
    length,
    checksum: tableChecksum(glyphData),
    metrics,
    shortOffsets: offsets.subarray(0, glyphs.length * 2),
  };
  return { subset, known, glyphData };
}

/** A table of a font file: its tag, and where its bytes lie in the file's `rest` (SubsetFile). */
interface TablePlace {
  readonly tag: string;
  readonly at: number;
  readonly length: number;
}

/**
 * A TrueType font with only `glyphs` (old ids, glyph 0 first), renumbered 0..n-1 in that order: the tables
 * PDF needs for a CIDFontType2 with an Identity CIDToGIDMap (glyf, head, hhea, hmtx, loca, maxp). The first
 * `known.glyphs` glyphs are the known ones: their glyph data is left out (written once by the caller) and only its
 * checksum is read, and their metrics and short offsets are copied; the subset's work is its other glyphs'.
 */
export function subsetTrueType(font: TrueTypeFile, glyphs: readonly number[], known: KnownGlyphData = NO_KNOWN_GLYPH_DATA): SubsetFile {
  const newIds = perGlyph(newIdArrays, font, (glyphs) => new Uint16Array(glyphs));
  for (let index = 0; index < glyphs.length; index++) newIds[glyphs[index]!] = index;
  const ownLength = glyphDataLength(font, glyphs, known.glyphs);
  // Offsets halved in 16 bits (the short format) when the glyph data allows it: half the loca table's bytes.
  const shortLoca = known.length + ownLength <= MAX_SHORT_LOCA_OFFSET;
  const tableLength = (tag: string) => table(font.tables, tag).length;
  const lengths: [string, number][] = [
    ['glyf', ownLength],
    ['head', tableLength('head')],
    ['hhea', tableLength('hhea')],
    ['hmtx', glyphs.length * 4],
    ['loca', (glyphs.length + 1) * (shortLoca ? 2 : 4)],
    ['maxp', tableLength('maxp')],
  ];
  const places: TablePlace[] = [];
  let size = 0;
  for (const [tag, length] of lengths) {
    places.push({ tag, at: size, length });
    size += pad4(length);
  }
  const rest = new Uint8Array(size);
  const [glyf, head, hhea, hmtx, loca, maxp] = places as [TablePlace, TablePlace, TablePlace, TablePlace, TablePlace, TablePlace];
  const copy = (place: TablePlace) => {
    const record = table(font.tables, place.tag);
    rest.set(font.bytes.subarray(record.offset, record.offset + record.length), place.at);
  };
  copy(head);
  copy(hhea);
  copy(maxp);
  const view = new DataView(rest.buffer);
  view.setUint32(head.at + 8, 0);
  view.setInt16(head.at + 50, shortLoca ? 0 : 1);
  view.setUint16(hhea.at + 34, glyphs.length);
  view.setUint16(maxp.at + 4, glyphs.length);
  rest.set(known.metrics, hmtx.at);
  writeMetrics(font, glyphs, known.glyphs, rest, hmtx.at);
  if (shortLoca) {
    rest.set(known.shortOffsets, loca.at);
    writeOffsets(font, glyphs, known.glyphs, known.length, true, rest, loca.at);
  } else {
    writeOffsets(font, glyphs, 0, 0, false, rest, loca.at);
  }
  // Each glyph copied into place, its components' glyph ids renumbered there: no copy per glyph. A loop, and the
  // bytes copied one by one (a glyph is a few dozen): a closure and a subarray per glyph were garbage for every
  // glyph of every new subset.
  let at = glyf.at;
  const { bytes } = font;
  for (let index = known.glyphs; index < glyphs.length; index++) {
    const gid = glyphs[index]!;
    const start = font.glyphData + font.glyphOffsets[gid]!;
    const end = font.glyphData + font.glyphOffsets[gid + 1]!;
    for (let from = start; from < end; from++) rest[at + from - start] = bytes[from]!;
    const count = componentOffsets(font, gid);
    for (let place = 0; place < count; place++) {
      view.setUint16(at + componentAt[place]! - start, newIds[font.view.getUint16(componentAt[place]!)]!);
    }
    at += pad4(end - start);
  }
  return withDirectory(rest, places, known);
}

/**
 * A font file of tables whose bytes are written in `rest` (each at a multiple of 4, padded with zeros): its table
 * directory, the tables' checksums and the head's checksum adjustment. The first table starts with the known glyph
 * data, which is not in `rest`. The whole file's checksum is the directory's plus the tables' (every table starts
 * and ends on a multiple of 4). `places` are sorted by tag, as the directory must be.
 */
function withDirectory(rest: Uint8Array, places: readonly TablePlace[], known: KnownGlyphData = NO_KNOWN_GLYPH_DATA): SubsetFile {
  let power = 1;
  let log = 0;
  while (power * 2 <= places.length) [power, log] = [power * 2, log + 1];
  const headerLength = 12 + places.length * 16;
  const directory = new Uint8Array(headerLength);
  const view = new DataView(directory.buffer);
  view.setUint32(0, 0x00010000);
  view.setUint16(4, places.length);
  view.setUint16(6, power * 16);
  view.setUint16(8, log);
  view.setUint16(10, places.length * 16 - power * 16);
  let headAt = 0;
  let sum = 0;
  for (let index = 0; index < places.length; index++) {
    const { tag, at, length } = places[index]!;
    const record = 12 + index * 16;
    const first = index === 0;
    for (let i = 0; i < 4; i++) directory[record + i] = tag.charCodeAt(i);
    const tableSum = (checksum(rest, at, pad4(length)) + (first ? known.checksum : 0)) >>> 0;
    view.setUint32(record + 4, tableSum);
    view.setUint32(record + 8, headerLength + (first ? 0 : known.length) + at);
    view.setUint32(record + 12, length + (first ? known.length : 0));
    sum += tableSum;
    if (tag === 'head') headAt = at;
  }
  sum += checksum(directory, 0, headerLength);
  new DataView(rest.buffer, rest.byteOffset).setUint32(headAt + 8, (0xb1b0afba - sum) >>> 0);
  return { directory, rest, length: headerLength + known.length + rest.length };
}

/**
 * The font without its outlines (glyf, loca): all HarfBuzz reads to shape (cmap, GSUB, GPOS, GDEF, hmtx…), at a
 * fraction of the size. HarfBuzz copies a font into its own memory; the CJK face is 19 MB, its outlines nearly all
 * of it, and copying them cost a new isolate more than 100 ms. The subsetter keeps reading the outlines from the
 * whole file. test/render/hb-shape-oracle.test.ts checks that shaping is the same as with the whole font.
 */
export function withoutOutlines(font: TrueTypeFile): Uint8Array {
  const tables = [...font.tables].filter(([tag]) => tag !== 'glyf' && tag !== 'loca').sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const places: TablePlace[] = [];
  let size = 0;
  for (const [tag, { length }] of tables) {
    places.push({ tag, at: size, length });
    size += pad4(length);
  }
  const rest = new Uint8Array(size);
  tables.forEach(([, { offset, length }], index) => {
    rest.set(font.bytes.subarray(offset, offset + length), places[index]!.at);
  });
  const { directory } = withDirectory(rest, places);
  return concatBytes([directory, rest]);
}
