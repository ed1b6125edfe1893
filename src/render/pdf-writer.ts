import { PDFCatalog, PDFContext, PDFHexString, PDFName, PDFObject, PDFPageLeaf, PDFPageTree, PDFRef } from 'pdf-lib';
import { concatBytes } from '../bytes.ts';
import { AsciiBuffer, GREATER, HEX_DIGITS, LESS, LINE_FEED, decimalText as num, SPACE } from './ascii-buffer.ts';
import { isRightToLeft } from './bidi.ts';
import type { DrawOp, PageSize, Rgb } from './canvas.ts';
import { deflatePiece, partOf, storedPiece, type ZlibPart, zlibOfParts } from './deflate.ts';
import { UndrawableText } from './errors.ts';
import type { EmbeddableFace, FontFace, FontWeight } from './faces.ts';
import { FALLBACK_FACES } from './font-coverage.ts';
import type { FontSet } from './fonts.ts';
import { LiteralCode } from './literal-deflate.ts';
import { serializePdf } from './pdf-file.ts';
import { SeenBefore } from './seen-before.ts';
import type { ShapedGlyph } from './shaping.ts';
import { isArtifact, type Mark, PAGINATION, type StructureElement } from './structure.ts';
import { artifactOperator, LAYOUT, languageString, StructureTree } from './structure-tree.ts';
import { closeGlyphSet, type KnownGlyphData, knownGlyphs, perGlyph, type SubsetFile, subsetTrueType } from './truetype.ts';
import { cjkLanguageOfLine, type GlyphRun, type SetLine } from './typeset.ts';
import type { Zlib } from './zlib.ts';

interface PdfInput {
  size: PageSize;
  pages: readonly (readonly DrawOp[])[];
  title: string;
  /** The document's language (the template's locale), a BCP 47 tag. */
  language: string;
  /** The structure tree's root, whose elements the pages' text and links are marked with. */
  structure: StructureElement;
  fonts: FontSet;
  /** The request's text values: a line of Han characters takes the regional forms of the value it is part of. */
  values: readonly string[];
}

/** Stroke width of emboldened text (a family without a bold face), in thousandths of the font size. */
const EMBOLDEN_STROKE = 30;
/** Fill opacity of the preview watermark: legible across the page without hiding what is under it. */
const WATERMARK_OPACITY = 0.16;

/**
 * A colour's operators, made once per colour: a page changes colour at most texts (labels and values alternate),
 * and three numbers' strings per change were garbage. The layout draws with a palette of constants, and a colour
 * given otherwise is forgotten with it.
 */
const colourOperators = new WeakMap<Rgb, { rg: string; RG: string }>();
function rgb(color: Rgb, operator: 'rg' | 'RG'): string {
  let operators = colourOperators.get(color);
  if (!operators) {
    const components = `${num(color[0])} ${num(color[1])} ${num(color[2])}`;
    operators = { rg: `${components} rg`, RG: `${components} RG` };
    colourOperators.set(color, operators);
  }
  return operators[operator];
}
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).toUpperCase().padStart(2, '0'));
/** A glyph's width as the font's /W array gives it, in thousandths of the font size: what a viewer moves the pen by. */
const widthOf = (file: EmbeddableFace['file'], gid: number) => Math.round(file.advances[gid]! * (1000 / file.unitsPerEm));

/**
 * The buffer the glyph runs of one text are written into (FontUse.show) before they are copied into the page's
 * content in drawing order: calls are synchronous, so no two texts use it at once.
 */
const runChars = new AsciiBuffer();

/**
 * The buffer a page's content is written into (contentOf), compressed before the next page's: one for every call,
 * grown once to the longest page, where a new one grew by doubling for every page (a tenth of what a render
 * allocated, and allocation is what brings the collector's pauses).
 */
const pageContent = new AsciiBuffer();
/** The buffer a subset's widths are written into (widthList) before they are read back as a string. */
const widthsSyntax = new AsciiBuffer();
/** How a /W array of widths from glyph 0 starts. */
const W_START = '[ 0 [ ';

/** The widths of `glyphs` from index `from` on, each followed by a space, as a /W array lists them. */
function widthList(file: EmbeddableFace['file'], glyphs: readonly number[], from: number): string {
  const out = widthsSyntax;
  out.reset();
  for (let index = from; index < glyphs.length; index++) {
    out.integer(widthOf(file, glyphs[index]!));
    out.char(SPACE);
  }
  return out.string(0, out.length);
}

/**
 * Where the TJ arrays FontUse.show writes stand: whether an array, and a run of glyph ids in it, is open. One for
 * every call, as calls are synchronous: three closures over the state per call were garbage for every text drawn.
 */
class TjArrays {
  private out = runChars;
  private from = 0;
  private inArray = false;
  private inRun = false;

  start(out: AsciiBuffer): this {
    this.out = out;
    this.from = out.length;
    this.inArray = false;
    this.inRun = false;
    return this;
  }

  flushRun(): void {
    if (this.inRun) this.out.char(GREATER);
    this.inRun = false;
  }

  flushArray(): void {
    this.flushRun();
    if (this.inArray) this.out.text('] TJ');
    this.inArray = false;
  }

  openArray(): void {
    if (!this.inArray) this.out.text(this.out.length > this.from ? ' [' : '[');
    this.inArray = true;
  }

  /** Opens a run of glyph ids (`<`), in an array. */
  openRun(): void {
    this.openArray();
    if (!this.inRun) this.out.char(LESS);
    this.inRun = true;
  }
}
const tjArrays = new TjArrays();

/** What a glyph that shows no text of its own maps to: U+2060 WORD JOINER (see FontUse.toUnicode). */
const SHOWS_NOTHING = '\u2060';

/**
 * Every string this writer puts into a PDF object is hex-encoded, never a literal `( … )`: in a hex string no
 * character can close the string or start another object, so `)`, `\`, CR or LF in a caller's link or number
 * stay data (PDF 32000 7.3.4.3).
 */
function asciiString(text: string): PDFHexString {
  let hex = '';
  for (let i = 0; i < text.length; i++) hex += HEX_BYTES[text.charCodeAt(i) & 0x7f]!;
  return PDFHexString.of(hex);
}

/**
 * A link target is 7-bit ASCII (PDF 32000 12.6.4.7). The url rules only let ASCII through; anything else
 * would be percent-encoded as UTF-8, as an IRI becomes a URI (RFC 3987 3.1).
 */
function uriString(url: string): PDFHexString {
  const encoder = new TextEncoder();
  return asciiString(url.replace(/[^\p{ASCII}]+/gu, (run) => [...encoder.encode(run)].map((byte) => `%${HEX_BYTES[byte]}`).join('')));
}

const textSyntax = new AsciiBuffer();

/**
 * A text string (the title, a link's description, the preview marking's ActualText) as AsciiBuffer.textString writes
 * it: pdf-lib's PDFHexString.fromText, same bytes, built a padded string per character, 5% of the largest preview's
 * render (its links at 2,000 characters).
 */
function textString(text: string): PdfSyntax {
  textSyntax.reset();
  textSyntax.textString(text);
  return PdfSyntax.of(textSyntax.string(0, textSyntax.length));
}

/**
 * The glyphs one font draws in a document, renumbered for its subset. A glyph shows the text it was first seen
 * with; in a script face, the same glyph showing other text (a letter alone and inside a conjunct) is embedded
 * once more under its own number, so that each occurrence copies as what it shows.
 */
class FontUse {
  readonly face: EmbeddableFace;
  /** The glyphs every subset of a Latin face starts with; none for a script face. */
  readonly stable: StableSubset | undefined;
  /** The PDF resource name of the font on every page. */
  resource: string;
  /** Glyph → the text it shows; a Latin glyph shows its one character. Not the stable glyphs showing theirs. */
  readonly used = new Map<number, string>();
  /**
   * `gid text` → the number of a copy of the glyph that shows that text: in a script face, and for a Latin
   * glyph that was given a text of its own (a bracket mirrored in right-to-left text), which Latin-only
   * documents never have, so their bytes stay.
   */
  private readonly copies = new Map<string, number>();
  private readonly copyOrder: [number, string][] = [];
  private readonly distinctText: boolean;
  /** Glyphs seen with a text of their own. */
  private readonly textual = new Set<number>();
  glyphs: readonly number[] = [];
  /** The subset's glyph id of each glyph of the subset (documentIds). */
  private readonly newIds: Uint16Array;
  /** The key() of the sealed subset. */
  subsetKey = '';

  constructor(face: EmbeddableFace, resource: string, distinctText: boolean, stable?: StableSubset) {
    this.face = face;
    this.stable = stable;
    this.resource = resource;
    this.distinctText = distinctText;
    this.newIds = perGlyph(documentIds, face.file, (glyphs) => new Uint16Array(glyphs));
  }

  private distinct(glyph: ShapedGlyph): boolean {
    return this.distinctText || glyph.text !== undefined || this.textual.has(glyph.gid);
  }

  /** Notes a run's glyphs, and the characters the font cannot draw (shaped as glyph 0). */
  collect(glyphs: readonly ShapedGlyph[], missing: Set<number>): void {
    for (let index = 0; index < glyphs.length; index++) {
      const glyph = glyphs[index]!;
      if (glyph.gid === 0) {
        missing.add(glyph.codePoint);
        continue;
      }
      if (glyph.text !== undefined) this.textual.add(glyph.gid);
      const shown = this.shownBy(glyph.gid);
      if (shown === undefined) {
        this.used.set(glyph.gid, textOf(glyph));
        continue;
      }
      if (showsText(glyph, shown) || !this.distinct(glyph)) continue;
      const text = textOf(glyph);
      const key = copyKey(glyph.gid, text);
      if (!this.copies.has(key)) {
        this.copies.set(key, -1);
        this.copyOrder.push([glyph.gid, text]);
      }
    }
  }

  /** The text a glyph id shows in the subset: as first seen in the document, else as a stable glyph. */
  private shownBy(gid: number): string | undefined {
    return this.used.get(gid) ?? this.stable?.texts.get(gid);
  }

  /**
   * Numbers the glyphs: the stable subset's first, then the others and their components in font order, then the
   * copies. The numbering is a function of the key, as the subset is: a cached subset's is taken as it is.
   */
  seal(): void {
    this.subsetKey = this.key();
    this.glyphs = subsetCache.get(this.subsetKey)?.glyphs ?? this.numbered();
    const copiesFrom = this.glyphs.length - this.copyOrder.length;
    for (let index = 0; index < copiesFrom; index++) this.newIds[this.glyphs[index]!] = index;
    this.copyOrder.forEach(([gid, text], index) => {
      this.copies.set(copyKey(gid, text), copiesFrom + index);
    });
  }

  private numbered(): number[] {
    const { stable } = this;
    const own = closeGlyphSet(this.face.file, this.used.keys());
    const glyphs = stable ? [...stable.glyphs] : [];
    for (let index = 0; index < own.length; index++) if (!stable?.members.has(own[index]!)) glyphs.push(own[index]!);
    for (const [gid] of this.copyOrder) glyphs.push(gid);
    return glyphs;
  }

  /** The subset's number of a glyph as it shows its text. */
  private idOf(glyph: ShapedGlyph): number {
    if (!this.distinct(glyph) || showsText(glyph, this.shownBy(glyph.gid)!)) return this.newIds[glyph.gid]!;
    return this.copies.get(copyKey(glyph.gid, textOf(glyph)))!;
  }

  /**
   * ToUnicode entries: each subset glyph and the text it shows. A glyph that shows nothing (a part of a cluster
   * whose text other glyphs carry) maps to WORD JOINER, an invisible format character: pdf.js skips glyphs
   * that map to format characters, where a glyph without an entry would copy as a control character; poppler
   * reads the cluster's /ActualText instead. The stable subset's glyphs showing their characters are not here:
   * their entries are the stable subset's.
   */
  toUnicode(): ToUnicodeEntry[] {
    const entries: ToUnicodeEntry[] = [];
    this.used.forEach((text, gid) => {
      entries.push([this.newIds[gid]!, text]);
    });
    for (const [gid, text] of this.copyOrder) entries.push([this.copies.get(copyKey(gid, text))!, text]);
    return entries.sort((a, b) => a[0] - b[0]);
  }

  /** What identifies the subset: the font and every glyph with the text it shows. */
  key(): string {
    // Without a list of the entries (taken for every font of every document), but joined: a string appended piece
    // by piece is kept as its pieces, and a cached subset's key kept them all alive, to be promoted.
    const glyphs: string[] = [];
    this.used.forEach((text, gid) => {
      glyphs.push(`${gid}.${text}`);
    });
    for (const [gid, text] of this.copyOrder) glyphs.push(`${gid}.${text}`);
    return `${this.face.postscriptName}:${glyphs.join(',')}`;
  }

  /**
   * The operators that show glyphs at the current point, written at the end of `out`: glyph ids in TJ arrays, with
   * the kerning and mark offsets the shaper gave as adjustments between glyphs, and a mark raised or lowered by
   * text rise; and how far they move the pen, in thousandths of the font size, as a viewer computes it from /W and
   * the adjustments.
   */
  show(glyphs: readonly ShapedGlyph[], size: number, out: AsciiBuffer): { from: number; to: number; advance: number } {
    const { file } = this.face;
    const scale = 1000 / file.unitsPerEm;
    const from = out.length;
    let advance = 0;
    let shift = 0;
    let rise = 0;
    const arrays = tjArrays.start(out);
    for (const glyph of glyphs) {
      shift += glyph.dx;
      if (Math.abs(shift) >= 0.005) {
        arrays.flushRun();
        arrays.openArray();
        // The adjustment as written: rounded to hundredths.
        out.decimal(-shift);
        advance -= Math.round(-shift * 100) / 100;
      }
      if (glyph.dy !== rise) {
        arrays.flushArray();
        rise = glyph.dy;
        if (out.length > from) out.char(SPACE);
        out.text(`${num((rise * size) / 1000)} Ts`);
      }
      arrays.openRun();
      out.hex4(this.idOf(glyph));
      advance += widthOf(file, glyph.gid);
      shift = glyph.advance - file.advances[glyph.gid]! * scale - glyph.dx;
      // pdf.js skips a glyph that shows nothing together with the adjustment after it in the same array.
      if (glyph.text === '') arrays.flushArray();
    }
    arrays.flushArray();
    if (rise !== 0) out.text(out.length > from ? ' 0 Ts' : '0 Ts');
    return { from, to: out.length, advance };
  }

  /** A deterministic subset tag: six capitals from a hash of the glyph set (PDF 32000 9.6.4). */
  tag(): string {
    let hash = 2166136261;
    for (const gid of this.glyphs) hash = Math.imul(hash ^ gid, 16777619) >>> 0;
    let tag = '';
    for (let i = 0; i < 6; i++) {
      tag += String.fromCharCode(65 + (hash % 26));
      hash = Math.floor(hash / 26) + i * 7;
    }
    return tag;
  }
}

/** What a glyph shows: a script face's glyph its text, a Latin glyph its character. */
const textOf = (glyph: ShapedGlyph): string => glyph.text ?? String.fromCodePoint(glyph.codePoint);

/**
 * Whether a glyph shows `shown`: a Latin glyph's character compared as a code point, no string made for every glyph
 * of the document.
 */
function showsText(glyph: ShapedGlyph, shown: string): boolean {
  if (glyph.text !== undefined) return glyph.text === shown;
  return shown.length === (glyph.codePoint > 0xffff ? 2 : 1) && shown.codePointAt(0) === glyph.codePoint;
}

/** The key of a glyph's copy that shows `text` (FontUse.copies). */
const copyKey = (gid: number, text: string): string => `${gid} ${text}`;

/** A subset glyph id and the text it shows. */
type ToUnicodeEntry = readonly [id: number, text: string];

const ASCII = new TextEncoder();
const CMAP_HEAD = ASCII.encode(
  '/CIDInit /ProcSet findresource begin\n12 dict begin\nbegincmap\n/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n' +
    '/CMapName /Adobe-Identity-UCS def\n/CMapType 2 def\n1 begincodespacerange\n<0000> <FFFF>\nendcodespacerange\n',
);

const CMAP_TAIL_TEXT = 'endcmap\nCMapName currentdict /CMap defineresource pop\nend\nend';

/** The buffer bfcharBlocks writes into, read (compressed or copied) before it is called again. */
const bfcharSyntax = new AsciiBuffer();

/**
 * ToUnicode entries (sorted by id) as bfchar blocks of at most 100 entries (PDF 32000 9.10.3), each ending in a
 * line break, then the CMap's tail when `withTail`: `<0041> <0041>` per entry, UTF-16BE hex, written as bytes (a
 * document's entries are written per document, and strings were most of that). The bytes are a view of a buffer
 * the next call writes over.
 */
function bfcharBlocks(entries: readonly ToUnicodeEntry[], withTail = false): Uint8Array {
  const out = bfcharSyntax;
  out.reset();
  for (let start = 0; start < entries.length; start += 100) {
    const end = Math.min(entries.length, start + 100);
    out.text(`${end - start} beginbfchar\n`);
    for (let index = start; index < end; index++) {
      const [id, text] = entries[index]!;
      const shown = text === '' ? SHOWS_NOTHING : text;
      out.char(LESS);
      out.hex4(id);
      out.char(GREATER);
      out.char(SPACE);
      out.char(LESS);
      for (let i = 0; i < shown.length; i++) out.hex4(shown.charCodeAt(i));
      out.char(GREATER);
      out.char(LINE_FEED);
    }
    out.text('endbfchar\n');
  }
  if (withTail) out.text(CMAP_TAIL_TEXT);
  return out.view();
}

/**
 * The glyphs every subset of a Latin face starts with, numbered 0… in every document: those of printable ASCII
 * (but for RARE_ASCII), which nearly every document draws most of, and of the few other characters the templates
 * print, with the components they are built from. Their glyph data and their ToUnicode entries are compressed once
 * per process (deflatePiece) and copied into each document's streams; the rest (the other glyphs of the document,
 * the metrics, the directory, the other ToUnicode entries) is coded per document as literals (literal-deflate.ts),
 * which looks for no repeats: a subset of new glyphs costs about what a cached one does. A subset holds these
 * glyphs whether the document draws them or not: some 5 KB more PDF for the reference invoices, against 0.2 to
 * 0.5 ms of compressing per document.
 */
interface StableSubset {
  readonly glyphs: readonly number[];
  readonly members: ReadonlySet<number>;
  /** Glyph → the character it shows, for the glyphs of the characters. */
  readonly texts: ReadonlyMap<number, string>;
  /** The glyph data of `glyphs` (the start of the subset's glyf table): its length and checksum, and compressed. */
  readonly glyphData: KnownGlyphData;
  readonly glyphDataPart: ZlibPart;
  /** The start of every subset's /W array: `[ 0 [ ` and the widths of `glyphs` (widthsArray). */
  readonly widthsHead: string;
  /** The ToUnicode map up to its last entry of a stable glyph, compressed. */
  readonly toUnicodeHead: ZlibPart;
  /** Codes for what a document adds: the rest of its font file (other glyphs, metrics), the rest of its ToUnicode map. */
  readonly fontFileCode: LiteralCode;
  readonly toUnicodeCode: LiteralCode;
}

/**
 * Printable ASCII that business text seldom has (markup, code and math signs): left out of the stable subset, where
 * each glyph would cost every document some 40 bytes per face; a document that draws one embeds it as one of its
 * own glyphs.
 */
const RARE_ASCII = '<=>[\\]^_`{|}~';

const STABLE_CHARACTERS = [
  ...Array.from({ length: 0x7f - 0x20 }, (_, index) => 0x20 + index).filter((code) => !RARE_ASCII.includes(String.fromCharCode(code))),
  // What the templates print themselves: the footer's and the preview marking's middle dot, the times sign of
  // quantities, the minus sign of negative amounts, the dash of ranges.
  ...[0xb7, 0xd7, 0x2212, 0x2013],
];

const stableSubsets = new WeakMap<FontFace, StableSubset>();

function stableSubsetOf(face: FontFace): StableSubset {
  const known = stableSubsets.get(face);
  if (known) return known;
  const texts = new Map<number, string>();
  for (const codePoint of STABLE_CHARACTERS) {
    const gid = face.glyphOf(codePoint);
    if (gid !== undefined && gid !== 0 && gid < face.file.numGlyphs && !texts.has(gid)) texts.set(gid, String.fromCodePoint(codePoint));
  }
  const glyphs = closeGlyphSet(face.file, texts.keys());
  const { subset, known: knownData, glyphData } = knownGlyphs(face.file, glyphs);
  const entries = [...texts].map(([gid, text]): ToUnicodeEntry => [glyphs.indexOf(gid), text]).sort((a, b) => a[0] - b[0]);
  const toUnicodeHead = concatBytes([CMAP_HEAD, bfcharBlocks(entries)]);
  const stable: StableSubset = {
    glyphs,
    members: new Set(glyphs),
    widthsHead: W_START + widthList(face.file, glyphs, 0),
    texts,
    glyphData: knownData,
    glyphDataPart: partOf(glyphData, deflatePiece(glyphData)),
    toUnicodeHead: partOf(toUnicodeHead, deflatePiece(toUnicodeHead)),
    // Coded for the bytes of the stable subset (glyph data, metrics), every byte value given a code: a sample of the
    // face nearly as good as the whole file (3 bytes more for the reference invoices, 40 to 70 for documents with
    // more glyphs of their own), and 18 times shorter to count in an isolate's first render.
    fontFileCode: new LiteralCode(concatBytes([subset.directory, subset.rest]), true),
    // Coded for the characters a ToUnicode map is written with (every hex digit among them), and no others.
    toUnicodeCode: new LiteralCode(concatBytes([HEX_DIGITS, bfcharBlocks(entries, true)]), false),
  };
  stableSubsets.set(face, stable);
  return stable;
}

/**
 * A subset font file compressed: with a stable subset, its glyph data compressed once, the directory (which
 * would not compress) stored, and the rest (the document's other glyphs and the metrics) as literals
 * (literal-deflate.ts).
 */
function compressFontFile({ directory, rest }: SubsetFile, stable: StableSubset | undefined, zlib: Zlib): Uint8Array {
  if (!stable) return zlib.compress(concatBytes([directory, rest]));
  return zlibOfParts([partOf(directory, storedPiece(directory)), stable.glyphDataPart, stable.fontFileCode.part(rest, zlib)]);
}

/** The ToUnicode CMap of a font, compressed; with a stable subset, its entries compressed once. */
function compressedToUnicode(use: FontUse, zlib: Zlib): Uint8Array {
  const { stable } = use;
  if (!stable) return zlib.compress(concatBytes([CMAP_HEAD, bfcharBlocks(use.toUnicode(), true)]));
  const rest = bfcharBlocks(use.toUnicode(), true);
  return zlibOfParts([stable.toUnicodeHead, stable.toUnicodeCode.part(rest, zlib)]);
}

/**
 * The subset's id of each glyph of a face in the document being written (perGlyph): FontUse.seal writes the ids of
 * its subset's glyphs; an array per face per document was also kept with every cached subset.
 */
const documentIds = new WeakMap<EmbeddableFace['file'], Uint16Array>();

/** What embedding a font subset costs to compute: the same for the same glyphs, so kept for reuse. */
interface EmbeddedSubset {
  /** The subset's glyphs in order (FontUse.glyphs). */
  readonly glyphs: readonly number[];
  fontFile: Uint8Array;
  fontFileLength: number;
  toUnicode: Uint8Array;
  dictionaries: FontDictionaries;
}

/**
 * A subset's three font dictionaries (FontDescriptor, CIDFontType2, Type0) as pdf-lib writes them, each cut where a
 * reference to another object of the document goes: pdf-lib builds and writes them once per face (dictionariesOf),
 * a subset's name and widths are put in once per subset, and a document puts in its object numbers; pdf-lib's
 * objects were built and written again for every font of every document.
 */
interface FontDictionaries {
  /** Around its /FontFile2 reference. */
  readonly descriptor: readonly [string, string];
  /** Around its /FontDescriptor reference; its /W array (widthsArray) is in the second part. */
  readonly cidFont: readonly [string, string];
  /** Around its descendant font's reference and its /ToUnicode reference. */
  readonly type0: readonly [string, string, string];
}

/** Where FontDictionaries are cut: a reference no document has (pdf-lib numbers objects from 1). */
const CUT = PDFRef.of(0x7fffffff);

/** Cuts `dictionary`'s syntax at each CUT reference: `parts` parts, or an error (a key pdf-lib wrote differently). */
function cutAtReferences<Parts extends readonly string[]>(dictionary: PDFObject, parts: Parts['length']): Parts {
  const cut = dictionary.toString().split(CUT.toString());
  if (cut.length !== parts) throw new Error(`font dictionary cut in ${cut.length} parts, not ${parts}`);
  return cut as unknown as Parts;
}

/**
 * An object already written as PDF syntax, put among pdf-lib's objects as it is: a font's dictionaries
 * (FontDictionaries), and the marks pdf-lib writes into their templates (dictionariesOf).
 */
class PdfSyntax extends PDFObject {
  private readonly syntax: string;
  private constructor(syntax: string) {
    super();
    this.syntax = syntax;
  }

  static of(syntax: string): PdfSyntax {
    return new PdfSyntax(syntax);
  }

  override toString(): string {
    return this.syntax;
  }
  override sizeInBytes(): number {
    return this.syntax.length;
  }
  override copyBytesInto(buffer: Uint8Array, offset: number): number {
    for (let i = 0; i < this.syntax.length; i++) buffer[offset + i] = this.syntax.charCodeAt(i);
    return this.syntax.length;
  }
}

/**
 * A font subset's name (`ABCDEF+NotoSans-Regular`) as a PDF name, written as text: pdf-lib's names are interned in a
 * pool that keeps every name for the life of the process, and a name per new glyph set was memory a server never got
 * back.
 */
function subsetName(name: string): string {
  // A subset's tag and a bundled face's PostScript name are of these characters only, none escaped in a name.
  if (!/^[A-Za-z0-9+-]+$/.test(name)) throw new Error(`subset name ${name} needs escaping`);
  return `/${name}`;
}

/**
 * A CIDFont's /W array for `glyphs` (new ids from 0), as pdf-lib would write `[0 [widths]]`: the stable subset's
 * start of it (StableSubset.widthsHead), then the other glyphs' widths written by widthList. pdf-lib's objects
 * made a number object and a string per glyph for every new subset, and its toString joins a string per element,
 * which kept in the cache would keep every piece with it.
 */
function widthsArray(file: EmbeddableFace['file'], glyphs: readonly number[], stable: StableSubset | undefined): string {
  const head = stable ? stable.widthsHead : W_START;
  return `${head}${widthList(file, glyphs, stable?.glyphs.length ?? 0)}] ]`;
}

/** Where a subset's name and /W array go in its face's dictionaries (dictionariesOf): text no PDF name or array has. */
const SUBSET_NAME = PdfSyntax.of('@name@');
const SUBSET_WIDTHS = PdfSyntax.of('@widths@');

/**
 * Per face, its subsets' dictionaries with SUBSET_NAME and SUBSET_WIDTHS where a subset's name and widths go, built
 * by pdf-lib once (its key order and number syntax).
 */
const faceDictionaries = new WeakMap<EmbeddableFace, FontDictionaries>();

function dictionariesOf(face: EmbeddableFace): FontDictionaries {
  const known = faceDictionaries.get(face);
  if (known) return known;
  // Objects made only to be written, in a context of their own: none is registered in a document.
  const context = PDFContext.create();
  const { file } = face;
  const scale = 1000 / file.unitsPerEm;
  const descriptor = context.obj({
    Type: 'FontDescriptor',
    FontName: SUBSET_NAME,
    Flags: 32,
    FontBBox: file.bbox.map((v) => Math.round(v * scale)),
    ItalicAngle: 0,
    Ascent: Math.round(file.ascent * scale),
    Descent: Math.round(file.descent * scale),
    CapHeight: Math.round(file.capHeight * scale),
    StemV: 80,
    FontFile2: CUT,
  });
  const cidFont = context.obj({
    Type: 'Font',
    Subtype: 'CIDFontType2',
    BaseFont: SUBSET_NAME,
    CIDSystemInfo: { Registry: asciiString('Adobe'), Ordering: asciiString('Identity'), Supplement: 0 },
    FontDescriptor: CUT,
    W: SUBSET_WIDTHS,
    CIDToGIDMap: 'Identity',
  });
  const type0 = context.obj({
    Type: 'Font',
    Subtype: 'Type0',
    BaseFont: SUBSET_NAME,
    Encoding: 'Identity-H',
    DescendantFonts: [CUT],
    ToUnicode: CUT,
  });
  const dictionaries: FontDictionaries = {
    descriptor: cutAtReferences<[string, string]>(descriptor, 2),
    cidFont: cutAtReferences<[string, string]>(cidFont, 2),
    type0: cutAtReferences<[string, string, string]>(type0, 3),
  };
  faceDictionaries.set(face, dictionaries);
  return dictionaries;
}

/** The dictionaries of a subset of `face` named `name` (subsetName), with the /W array `widths` (widthsArray). */
function fontDictionaries(face: EmbeddableFace, name: string, widths: string): FontDictionaries {
  const { descriptor, cidFont, type0 } = dictionariesOf(face);
  // Replaced by functions: a replacement string would read `$` patterns in what it puts in.
  const named = (part: string) => part.replace(SUBSET_NAME.toString(), () => name);
  return {
    descriptor: [named(descriptor[0]), descriptor[1]],
    cidFont: [named(cidFont[0]), cidFont[1].replace(SUBSET_WIDTHS.toString(), () => widths)],
    type0: [named(type0[0]), type0[1], type0[2]],
  };
}

/**
 * Subsets kept: 64 at most, and 16 MiB of compressed font, ToUnicode map and glyph lists at most, since one subset of
 * a long CJK document is megabytes (a Worker isolate has 128 MB in all).
 */
const SUBSET_CACHE_SIZE = 64;
/** Bytes a glyph takes in a subset's list of glyphs (an array element). */
const GLYPH_ENTRY_BYTES = 8;
const SUBSET_CACHE_BYTES = 16 * 1024 * 1024;
const subsetCache = new Map<string, EmbeddedSubset>();
/** Glyph sets subset once (SeenBefore): a subset is kept when its glyph set comes again, as a repeated request's. */
const subsetsSeen = new SeenBefore(1024);
let subsetCacheBytes = 0;
const cachedBytes = ({ fontFile, toUnicode, glyphs, dictionaries }: EmbeddedSubset) =>
  fontFile.length + toUnicode.length + glyphs.length * GLYPH_ENTRY_BYTES + dictionaries.cidFont[1].length;

/** Subsetting and compressing a font is a pure function of its glyphs, so recent results are reused (LRU). */
function subsetFor(use: FontUse, zlib: Zlib): EmbeddedSubset {
  const key = use.subsetKey;
  const cached = subsetCache.get(key);
  if (cached) {
    subsetCache.delete(key);
    subsetCache.set(key, cached);
    return cached;
  }
  const { file } = use.face;
  const fontFile = subsetTrueType(file, use.glyphs, use.stable?.glyphData);
  // `ABCDEF+NotoSans-Regular`: the tag is a hash of the glyph set (PDF 32000 9.6.4).
  const name = subsetName(`${use.tag()}+${use.face.postscriptName}`);
  const subset = {
    fontFile: compressFontFile(fontFile, use.stable, zlib),
    fontFileLength: fontFile.length,
    toUnicode: compressedToUnicode(use, zlib),
    dictionaries: fontDictionaries(use.face, name, widthsArray(file, use.glyphs, use.stable)),
    glyphs: use.glyphs,
  };
  if (!subsetsSeen.check(key)) return subset;
  subsetCache.set(key, subset);
  subsetCacheBytes += cachedBytes(subset);
  while (subsetCache.size > SUBSET_CACHE_SIZE || (subsetCacheBytes > SUBSET_CACHE_BYTES && subsetCache.size > 1)) {
    const [oldest, evicted] = subsetCache.entries().next().value!;
    subsetCache.delete(oldest);
    subsetCacheBytes -= cachedBytes(evicted);
  }
  return subset;
}

/**
 * A subset's objects, numbered in the order pdf-lib's nested objects were: the font file, the descriptor, the CIDFont,
 * the ToUnicode map, the Type0 font (whose reference the page resources take).
 */
function embedFont(context: PDFContext, use: FontUse, zlib: Zlib): PDFRef {
  const { fontFile, fontFileLength, toUnicode, dictionaries } = subsetFor(use, zlib);
  const { descriptor, cidFont, type0 } = dictionaries;
  const fontFileRef = context.register(context.stream(fontFile, { Filter: 'FlateDecode', Length1: fontFileLength }));
  const descriptorRef = context.register(PdfSyntax.of(`${descriptor[0]}${fontFileRef}${descriptor[1]}`));
  const cidFontRef = context.register(PdfSyntax.of(`${cidFont[0]}${descriptorRef}${cidFont[1]}`));
  const toUnicodeRef = context.register(context.stream(toUnicode, { Filter: 'FlateDecode' }));
  return context.register(PdfSyntax.of(`${type0[0]}${cidFontRef}${type0[1]}${toUnicodeRef}${type0[2]}`));
}

/**
 * The fonts of one document: a FontUse per face drawn. The Latin faces are F1 and F2 in every document; script faces follow as F3, F4… in the order of
 * font-coverage.ts, whatever order the text meets them in, so that the bytes depend on the text alone.
 */
class DocumentFonts {
  readonly set: FontSet;
  private readonly values: readonly string[];
  private readonly uses = new Map<EmbeddableFace, FontUse>();

  constructor(set: FontSet, values: readonly string[]) {
    this.set = set;
    this.values = values;
    this.uses.set(set.regular.latin, new FontUse(set.regular.latin, 'F1', false, stableSubsetOf(set.regular.latin)));
    this.uses.set(set.bold.latin, new FontUse(set.bold.latin, 'F2', false, stableSubsetOf(set.bold.latin)));
  }

  /**
   * A line as the font set sets it (and keeps it for the document): the same runs for collecting glyphs and for
   * drawing them.
   */
  lineOf(weight: FontWeight, text: string): SetLine {
    return this.set[weight].setLine(text, cjkLanguageOfLine(text, this.values));
  }

  useOf(face: EmbeddableFace): FontUse {
    let use = this.uses.get(face);
    if (!use) {
      use = new FontUse(face, '', true);
      this.uses.set(face, use);
    }
    return use;
  }

  /** Names the script faces' resources in their fixed order and closes every glyph set. */
  seal(): FontUse[] {
    const [regular, bold, ...scripts] = [...this.uses.values()];
    const order = (use: FontUse) => FALLBACK_FACES.findIndex((info) => 'info' in use.face && use.face.info === info);
    scripts.sort((a, b) => order(a) - order(b));
    scripts.forEach((use, index) => {
      use.resource = `F${index + 3}`;
    });
    const all = [regular!, bold!, ...scripts];
    for (const use of all) use.seal();
    return all;
  }
}

/** Runs of a line drawn one after the other, after the pen moves by `move` (see `stretchesOf`). */
interface Stretch {
  /** A TJ displacement, in thousandths of the font size: positive moves left. */
  readonly move: number;
  /** Indices into the line's runs, left to right. */
  readonly runs: readonly number[];
}

/** One stretch of `count` runs in order, without a move: shared, as most lines are one run. */
const IN_ORDER: Stretch[][] = [];
function inOrder(count: number): readonly Stretch[] {
  IN_ORDER[count] ??= [{ move: 0, runs: Array.from({ length: count }, (_, index) => index) }];
  return IN_ORDER[count];
}

/**
 * The order a line's runs are drawn in: the order of the text, so that pdf.js, which reads a line's items in
 * drawing order (one item per font) and turns each right-to-left item around on its own, gives a right-to-left
 * line as sent. Runs of one script face side by side stay together, left to right: pdf.js makes one item of
 * them and orders its digits and words itself (Arabic text with Arabic-Indic digits); it leaves an item without
 * right-to-left letters as drawn, so the Latin face's runs (digits, punctuation between right-to-left words)
 * each keep their own place in the order. Runs that follow each other from left to right make one stretch;
 * before each stretch the pen moves from where the last one ended to the place of its first run in the visual
 * order, as the widths and adjustments the PDF draws with (the runs' `shown` advances) give it.
 * A TJ displacement says that exactly in thousandths of the font size (a Td would round to hundredths of a
 * point), so every glyph lands where drawing the runs left to right would put it. A line without right-to-left
 * text is one stretch without a move: drawn as before.
 */
function stretchesOf(runs: SetLine['runs'], logicalOrder: readonly number[], shown: readonly { advance: number }[]): readonly Stretch[] {
  // Runs in the order of the text (every line without right-to-left text) are one stretch without a move. Checked
  // in a loop, as below and in hasSpan: a closure per text drawn was garbage.
  let inTextOrder = true;
  for (let index = 0; index < logicalOrder.length && inTextOrder; index++) inTextOrder = logicalOrder[index] === index;
  if (inTextOrder) return inOrder(runs.length);
  const rank: number[] = [];
  logicalOrder.forEach((index, place) => {
    rank[index] = place;
  });
  const blocks: number[][] = [];
  runs.forEach((run, index) => {
    const block = blocks.at(-1);
    if (block && runs[index - 1]!.face === run.face && 'info' in run.face) block.push(index);
    else blocks.push([index]);
  });
  const first = (block: number[]) => Math.min(...block.map((index) => rank[index]!));
  const starts: number[] = [];
  let end = 0;
  for (const { advance } of shown) {
    starts.push(end);
    end += advance;
  }
  const stretches: { move: number; runs: number[] }[] = [];
  let pen = 0;
  for (const index of blocks.sort((a, b) => first(a) - first(b)).flat()) {
    const move = pen - starts[index]!;
    const last = stretches.at(-1);
    if (last && num(move) === '0') last.runs.push(index);
    else stretches.push({ move, runs: [index] });
    pen = starts[index]! + shown[index]!.advance;
  }
  return stretches;
}

/**
 * A stretch of runs drawn with a script face, or with right-to-left punctuation of the Latin face whose glyphs
 * show it in logical order for pdf.js (typeset.ts latinNeutrals), is one /ActualText span holding what it shows
 * in drawing order, without the glyphs that show nothing (FontUse.toUnicode). poppler reads the span as one
 * piece placed from its first glyph to the end of its last, instead of placing each glyph, which keeps the marks
 * of Hebrew and Arabic (drawn before their base, some raised or lowered) and the parts of a split Indic vowel in
 * their cluster; and, as it does with glyphs, it turns right-to-left text into logical order by where it lies,
 * so the span holds it in drawing order like the glyphs. A span is a stretch's, not the line's: the stretches
 * of a right-to-left line are drawn right to left, and a line's span would lie from its first glyph to its
 * last. pdf.js ignores /ActualText and reads the glyphs. Latin text drawn left to right gets no span: its bytes
 * stay. Whether a stretch gets one:
 */
function hasSpan(lineRuns: readonly GlyphRun[], indices: readonly number[]): boolean {
  for (let at = 0; at < indices.length; at++) {
    const run = lineRuns[indices[at]!]!;
    if ('info' in run.face || run.drawnText !== undefined) return true;
  }
  return false;
}

/**
 * Opens a stretch's span (hasSpan) in `out`: its text written as a text string straight from the runs' texts, no
 * string joined per stretch and none per glyph.
 */
function openSpan(out: AsciiBuffer, lineRuns: readonly GlyphRun[], indices: readonly number[]): void {
  out.text('/Span << /ActualText <FEFF');
  for (const index of indices) {
    const run = lineRuns[index]!;
    if (run.drawnText !== undefined) {
      out.utf16Hex(run.drawnText);
      continue;
    }
    for (const glyph of run.glyphs) {
      if (glyph.text !== undefined) out.utf16Hex(glyph.text);
      else if (glyph.codePoint < 0x10000) out.hex4(glyph.codePoint);
      else out.utf16Hex(String.fromCodePoint(glyph.codePoint));
    }
  }
  out.text('> >> BDC ');
}

type TextOp = Extract<DrawOp, { kind: 'text' }>;

/**
 * What a text draws: its text, and a space after it where the value goes on after a space on the next line (a
 * space has no ink, and tells a reader that joins the lines of an element, as poppler does, where words part).
 */
const drawnText = (op: TextOp): string => (op.breakAfter === 'space' ? `${op.text} ` : op.text);

/**
 * How far left of where its text starts a text is drawn from: a right-to-left line's space after it stands at its
 * left end (Unicode's rule L1 puts a line's trailing space at the paragraph's level), so the glyphs stay where the
 * layout put them.
 */
function spaceBeforeStart(op: TextOp, fonts: DocumentFonts): number {
  if (op.breakAfter !== 'space' || !isRightToLeft(op.text)) return 0;
  const face = fonts.set[op.weight];
  return face.widthOf(drawnText(op), op.size) - face.widthOf(op.text, op.size);
}

/**
 * One page's content stream, in pageContent: compressed before the next page's is written. Text runs share one
 * BT … ET and state operators are written only when the font, size or colour changes, which keeps the stream (and
 * its compression) small. Everything drawn is in a
 * marked-content sequence: a text's of its structure element or artifact (texts one after the other of the same
 * element share one), rules and rectangles a layout artifact's. A sequence never crosses BT or ET.
 */
function contentOf(ops: readonly DrawOp[], size: PageSize, fonts: DocumentFonts, tree: StructureTree, page: number): Uint8Array {
  const out = pageContent;
  out.reset();
  let marked: Mark | undefined;
  const mark = (next: Mark) => {
    if (next === marked) return;
    if (marked) out.line('EMC');
    marked = next;
    if (out.length) out.char(LINE_FEED);
    tree.open(next, page, out);
  };
  const endMark = () => {
    if (marked) out.line('EMC');
    marked = undefined;
  };
  const watermarks: Extract<DrawOp, { kind: 'watermark' }>[] = [];
  const flip = (y: number) => size.height - y;
  let inText = false;
  let font = '';
  /** The font and size `font` was last chosen for: a text in the same writes no Tf and builds none. */
  let fontUse: FontUse | undefined;
  let fontSize = 0;
  let fill = '';
  let fillColor: Rgb | undefined;
  let lineX = 0;
  let lineY = 0;
  const setFill = (color: Rgb) => {
    // Most texts keep the colour of the one before: compared as numbers before writing the operator.
    if (fillColor && color[0] === fillColor[0] && color[1] === fillColor[1] && color[2] === fillColor[2]) return;
    fillColor = color;
    const operator = rgb(color, 'rg');
    if (operator === fill) return;
    fill = operator;
    out.line(operator);
  };
  const endText = () => {
    if (!inText) return;
    endMark();
    out.line('ET');
    inText = false;
  };
  // Indexed loops here and in writePdf: the iterators of for…of were a tenth of what a page's writing allocated.
  for (let at = 0; at < ops.length; at++) {
    const op = ops[at]!;
    if (op.kind === 'text') {
      if (!inText) {
        endMark();
        out.line('BT');
        lineX = 0;
        lineY = 0;
      }
      inText = true;
      mark(op.mark);
      if (!isArtifact(op.mark)) tree.text(op.mark, op.text, op.breakAfter);
      setFill(op.color);
      const text = drawnText(op);
      const x = Math.round((op.x - spaceBeforeStart(op, fonts)) * 100) / 100;
      const y = Math.round(flip(op.y) * 100) / 100;
      const { runs, logicalOrder } = fonts.lineOf(op.weight, text);
      runChars.reset();
      const shown = runs.map((run) => fonts.useOf(run.face).show(run.glyphs, op.size, runChars));
      // Loops, not forEach: a closure per text and one per stretch were garbage for every text drawn.
      const stretches = stretchesOf(runs, logicalOrder, shown);
      for (let number = 0; number < stretches.length; number++) {
        const stretch = stretches[number]!;
        const span = hasSpan(runs, stretch.runs);
        const move = num(stretch.move) === '0' ? '' : `[${num(stretch.move)}] TJ `;
        for (let place = 0; place < stretch.runs.length; place++) {
          const index = stretch.runs[place]!;
          const run = runs[index]!;
          const use = fonts.useOf(run.face);
          if (use !== fontUse || op.size !== fontSize) {
            [fontUse, fontSize] = [use, op.size];
            const selected = `/${use.resource} ${num(op.size)} Tf`;
            if (selected !== font) {
              font = selected;
              out.line(selected);
            }
          }
          out.line('');
          if (number === 0 && place === 0) {
            out.decimal(x - lineX);
            out.char(SPACE);
            out.decimal(y - lineY);
            out.text(' Td ');
          }
          if (place === 0) {
            out.text(move);
            if (span) openSpan(out, runs, stretch.runs);
          }
          if (run.emboldened) out.text(`2 Tr ${num((EMBOLDEN_STROKE * op.size) / 1000)} w ${rgb(op.color, 'RG')} `);
          out.append(runChars, shown[index]!.from, shown[index]!.to);
          if (run.emboldened) out.text(' 0 Tr');
        }
        if (span) out.line('EMC');
      }
      lineX = x;
      lineY = y;
      continue;
    }
    endText();
    if (op.kind === 'rect' || op.kind === 'frame' || op.kind === 'line') mark(LAYOUT);
    switch (op.kind) {
      case 'rect':
        setFill(op.color);
        out.line(`${num(op.x)} ${num(flip(op.y + op.height))} ${num(op.width)} ${num(op.height)} re f`);
        break;
      case 'frame':
        out.line(
          `${rgb(op.color, 'RG')} ${num(op.lineWidth)} w ${num(op.x)} ${num(flip(op.y + op.height))} ${num(op.width)} ${num(op.height)} re S`,
        );
        break;
      case 'line':
        out.line(`${rgb(op.color, 'RG')} ${num(op.width)} w ${num(op.x1)} ${num(flip(op.y1))} m ${num(op.x2)} ${num(flip(op.y2))} l S`);
        break;
      case 'watermark':
        watermarks.push(op);
        break;
      case 'link':
        break;
      case 'modules':
        mark(op.element);
        setFill(BLACK);
        out.line(modulesPath(op, flip));
        break;
    }
  }
  endText();
  endMark();
  for (const watermark of watermarks) out.line(watermarkOf(watermark, size, fonts));
  return out.view();
}

const BLACK: Rgb = [0, 0, 0];

/**
 * A QR code's dark modules as one filled path: a rectangle per run of dark modules in a row (far fewer than one
 * per module), in the order of the rows.
 */
function modulesPath(op: Extract<DrawOp, { kind: 'modules' }>, flip: (y: number) => number): string {
  const parts: string[] = [];
  op.modules.forEach((row, rowIndex) => {
    for (let column = 0; column < row.length; ) {
      if (!row[column]) {
        column++;
        continue;
      }
      let end = column;
      while (end < row.length && row[end]) end++;
      const x = op.x + column * op.module;
      const y = flip(op.y + (rowIndex + 1) * op.module);
      parts.push(`${num(x)} ${num(y)} ${num((end - column) * op.module)} ${num(op.module)} re`);
      column = end;
    }
  });
  return `${parts.join(' ')} f`;
}

/**
 * The preview marking across the page, drawn after everything else as one text object. It is real text, but
 * marked as a watermark artifact (not content; the first page says it once as content at its foot, see
 * BusinessDocument.finish) and given its own text as ActualText, so that text extraction keeps it whole and
 * after the content instead of sorting its diagonal letters into the lines it crosses.
 */
function watermarkOf(op: Extract<DrawOp, { kind: 'watermark' }>, size: PageSize, fonts: DocumentFonts): string {
  const [run] = fonts.lineOf('bold', op.text).runs;
  const use = fonts.useOf(run!.face);
  const { file } = use.face;
  const width = fonts.set.bold.widthOf(op.text, op.size);
  // The page's diagonal as a direction, from + × ÷ and sqrt only: those are exactly rounded in every engine,
  // where atan2, cos, sin and hypot may differ in the last bit between Node, Bun and workerd.
  const diagonal = Math.sqrt(size.width * size.width + size.height * size.height);
  const [cos, sin] = [size.width / diagonal, size.height / diagonal];
  const lift = (file.capHeight / file.unitsPerEm) * op.size * 0.5;
  const x = size.width / 2 - (width / 2) * cos + lift * sin;
  const y = size.height / 2 - (width / 2) * sin - lift * cos;
  const matrix = [cos, sin, -sin, cos, x, y].map(num).join(' ');
  const actualText = textString(op.text).toString();
  runChars.reset();
  const shown = use.show(run!.glyphs, op.size, runChars);
  const operators = runChars.string(shown.from, shown.to);
  return `${artifactOperator(PAGINATION, 'Watermark')} /Span << /ActualText ${actualText} >> BDC q /GS1 gs BT ${rgb(op.color, 'rg')} /${use.resource} ${num(op.size)} Tf ${matrix} Tm ${operators} ET Q EMC EMC`;
}

/**
 * A new document: its catalog, page tree and information dictionary with the title, and pages added to the tree,
 * the same objects in the same order as pdf-lib's `PDFDocument.create`, `setTitle(title, { showInWindowTitleBar:
 * true })` and `addPage([width, height])` make them, without a PDFDocument. Its constructor assigns closures that
 * capture it to its own properties, which V8 allocates in old space (taking them for methods): dead with the
 * render, they kept the document, its context and every object of the PDF alive through the next two scavenges,
 * which copied and then promoted them all (see Flow.continuation in flow.ts).
 */
function newDocument(title: string): {
  context: PDFContext;
  catalog: PDFCatalog;
  addPage: (size: PageSize) => { node: PDFPageLeaf; ref: PDFRef };
} {
  const context = PDFContext.create();
  const pagesRef = context.register(PDFPageTree.withContext(context));
  const catalog = PDFCatalog.withContextAndPages(context, pagesRef);
  context.trailerInfo.Root = context.register(catalog);
  const info = context.obj({});
  context.trailerInfo.Info = context.register(info);
  // A hex text string (UTF-16BE), as textString writes.
  info.set(PDFName.of('Title'), textString(title));
  catalog.getOrCreateViewerPreferences().setDisplayDocTitle(true);
  let pageCount = 0;
  const addPage = (size: PageSize) => {
    const node = PDFPageLeaf.withContextAndParent(context, PDFRef.of(-1));
    const ref = context.register(node);
    node.set(PDFName.MediaBox, context.obj([0, 0, size.width, size.height]));
    node.setParent(catalog.insertLeafNode(ref, pageCount++));
    return { node, ref };
  };
  return { context, catalog, addPage };
}

/**
 * Writes the pages as a PDF with pdf-lib: fonts subset to the glyphs used, text as Identity-H glyph ids with
 * a ToUnicode map (so it can be searched and copied), links as URI annotations. No dates, ids or counters:
 * the same input gives the same bytes. The PDF is tagged (PDF 32000 14.8): its language, a structure tree in
 * reading order with every link's annotation in its Link element, and page furniture as artifacts. Objects
 * other than streams go into one compressed object stream (pdf-file.ts), which keeps the many small structure
 * elements (one per table cell) from growing the file by more than a few percent.
 */
export function writePdf(input: PdfInput): Uint8Array<ArrayBuffer> {
  const fonts = new DocumentFonts(input.fonts, input.values);
  const missing = new Set<number>();
  for (const ops of input.pages) {
    for (let at = 0; at < ops.length; at++) {
      const op = ops[at]!;
      if (op.kind === 'text' || op.kind === 'watermark') {
        const { runs } = op.kind === 'text' ? fonts.lineOf(op.weight, drawnText(op)) : fonts.lineOf('bold', op.text);
        for (let index = 0; index < runs.length; index++) fonts.useOf(runs[index]!.face).collect(runs[index]!.glyphs, missing);
      }
    }
  }
  if (missing.size) throw new UndrawableText([{ characters: [...missing].sort((a, b) => a - b).map((cp) => String.fromCodePoint(cp)) }]);
  const uses = fonts.seal();

  const { context, catalog, addPage } = newDocument(input.title);
  const tree = new StructureTree(input.structure, input.pages.length);
  const fontRefs = Object.fromEntries(uses.map((use) => [use.resource, embedFont(context, use, input.fonts.zlib)]));
  const resources = context.register(context.obj({ Font: fontRefs, ExtGState: { GS1: { Type: 'ExtGState', ca: WATERMARK_OPACITY } } }));

  const pageRefs: PDFRef[] = [];
  for (let index = 0; index < input.pages.length; index++) {
    const ops = input.pages[index]!;
    const page = addPage(input.size);
    pageRefs.push(page.ref);
    page.node.set(PDFName.of('StructParents'), context.obj(index));
    page.node.set(PDFName.of('Tabs'), PDFName.of('S'));
    const content = contentOf(ops, input.size, fonts, tree, index);
    const compressed = input.fonts.zlib.compress(content);
    page.node.set(PDFName.of('Contents'), context.register(context.stream(compressed, { Filter: 'FlateDecode' })));
    page.node.set(PDFName.of('Resources'), resources);
    const links = ops.flatMap((op) => {
      if (op.kind !== 'link') return [];
      const ref = context.nextRef();
      context.assign(
        ref,
        context.obj({
          Type: 'Annot',
          Subtype: 'Link',
          Rect: [op.x, input.size.height - op.y - op.height, op.x + op.width, input.size.height - op.y].map((v) => Number(num(v))),
          Border: [0, 0, 0],
          A: { Type: 'Action', S: 'URI', URI: uriString(op.url) },
          // What a screen reader says for the link (PDF/UA-1 7.18.5): where it goes.
          Contents: textString(op.url),
          StructParent: tree.annotation(op.element, index, ref),
        }),
      );
      return [ref];
    });
    if (links.length) page.node.set(PDFName.of('Annots'), context.obj(links));
  }
  catalog.set(PDFName.of('Lang'), languageString(input.language));
  catalog.set(PDFName.of('MarkInfo'), context.obj({ Marked: true }));
  const structure = tree.write(context, pageRefs);
  catalog.set(PDFName.of('StructTreeRoot'), structure.root);
  return serializePdf(context, structure.objects, input.fonts.zlib);
}
