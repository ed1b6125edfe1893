import { concatBytes } from '../../../bytes.ts';
import type { FontFace } from '../../text/faces.ts';
import { closeGlyphSet, type KnownGlyphData, knownGlyphs } from '../../text/truetype.ts';
import { type AsciiBuffer, HEX_DIGITS } from '../ascii-buffer.ts';
import { deflatePiece, partOf, type ZlibPart } from '../deflate.ts';
import { LiteralCode } from '../literal-deflate.ts';
import { bfcharBlocks, CMAP_HEAD, type ToUnicodeEntry } from './to-unicode.ts';
import { W_START, widthList } from './widths.ts';

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
export interface StableSubset {
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

/** The stable subset of a Latin face, its widths and ToUnicode entries written through the buffers given. */
export function stableSubsetOf(face: FontFace, widthsSyntax: AsciiBuffer, toUnicodeSyntax: AsciiBuffer): StableSubset {
  const texts = new Map<number, string>();
  for (const codePoint of STABLE_CHARACTERS) {
    const gid = face.glyphOf(codePoint);
    if (gid !== undefined && gid !== 0 && gid < face.file.numGlyphs && !texts.has(gid)) texts.set(gid, String.fromCodePoint(codePoint));
  }
  const glyphs = closeGlyphSet(face.file, texts.keys());
  const { subset, known: knownData, glyphData } = knownGlyphs(face.file, glyphs);
  const entries = [...texts].map(([gid, text]): ToUnicodeEntry => [glyphs.indexOf(gid), text]).sort((a, b) => a[0] - b[0]);
  const toUnicodeHead = concatBytes([CMAP_HEAD, bfcharBlocks(entries, toUnicodeSyntax)]);
  return {
    glyphs,
    members: new Set(glyphs),
    widthsHead: W_START + widthList(face.file, glyphs, 0, widthsSyntax),
    texts,
    glyphData: knownData,
    glyphDataPart: partOf(glyphData, deflatePiece(glyphData)),
    toUnicodeHead: partOf(toUnicodeHead, deflatePiece(toUnicodeHead)),
    // Coded for the bytes of the stable subset (glyph data, metrics), every byte value given a code: a sample of the
    // face nearly as good as the whole file (3 bytes more for the reference invoices, 40 to 70 for documents with
    // more glyphs of their own), and 18 times shorter to count in an isolate's first render.
    fontFileCode: new LiteralCode(concatBytes([subset.directory, subset.rest]), true),
    // Coded for the characters a ToUnicode map is written with (every hex digit among them), and no others.
    toUnicodeCode: new LiteralCode(concatBytes([HEX_DIGITS, bfcharBlocks(entries, toUnicodeSyntax, true)]), false),
  };
}
