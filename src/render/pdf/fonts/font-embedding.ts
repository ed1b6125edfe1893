import type { PDFContext, PDFRef } from 'pdf-lib';
import { concatBytes } from '../../../bytes.ts';
import type { EmbeddableFace, FontFace } from '../../text/faces.ts';
import { type SubsetFile, subsetTrueType } from '../../text/truetype.ts';
import { AsciiBuffer } from '../ascii-buffer.ts';
import { partOf, storedPiece, zlibOfParts } from '../deflate.ts';
import { PdfSyntax } from '../pdf-strings.ts';
import type { Zlib } from '../zlib.ts';
import { type FontDictionaries, faceDictionaries, subsetDictionaries, subsetName } from './font-dictionaries.ts';
import type { FontUse } from './font-use.ts';
import { type StableSubset, stableSubsetOf } from './stable-subset.ts';
import { type EmbeddedSubset, SubsetCache } from './subset-cache.ts';
import { bfcharBlocks, CMAP_HEAD } from './to-unicode.ts';
import { W_START, widthList } from './widths.ts';

/** What a FontEmbedding keeps of one face. */
interface FaceEmbedding {
  /**
   * The subset's id of each glyph of the face in the document being written: FontUse.seal writes the ids of its
   * subset's glyphs; an array per face per document was also kept with every cached subset.
   */
  readonly ids: Uint16Array;
  /** A Latin face's stable subset, made when a document first uses the face. */
  stable?: StableSubset;
  /** The face's dictionaries (faceDictionaries), made when its first subset is. */
  dictionaries?: FontDictionaries;
}

/**
 * What embedding a font set's faces keeps from one document to the next, owned by the set: per face, its stable
 * subset, its dictionaries and the array its glyphs are numbered in; recent subsets (SubsetCache); the buffers a
 * subset's widths and ToUnicode map are written into, read before they are written again. Documents are written one
 * at a time (writing is synchronous), so no two use them at once.
 */
export class FontEmbedding {
  readonly subsets = new SubsetCache();
  private readonly faces = new Map<EmbeddableFace, FaceEmbedding>();
  /** The set's compressor. */
  private readonly zlib: Zlib;
  private readonly widthsSyntax = new AsciiBuffer();
  private readonly toUnicodeSyntax = new AsciiBuffer();

  constructor(zlib: Zlib) {
    this.zlib = zlib;
  }

  private faceOf(face: EmbeddableFace): FaceEmbedding {
    let known = this.faces.get(face);
    if (!known) {
      known = { ids: new Uint16Array(face.file.numGlyphs) };
      this.faces.set(face, known);
    }
    return known;
  }

  /** The array a document's subset of `face` numbers its glyphs in (FontUse.seal). */
  idsOf(face: EmbeddableFace): Uint16Array {
    return this.faceOf(face).ids;
  }

  stableSubsetOf(face: FontFace): StableSubset {
    const known = this.faceOf(face);
    known.stable ??= stableSubsetOf(face, this.widthsSyntax, this.toUnicodeSyntax);
    return known.stable;
  }

  /**
   * A sealed subset's objects, numbered in the order pdf-lib's nested objects were: the font file, the descriptor,
   * the CIDFont, the ToUnicode map, the Type0 font (whose reference the page resources take).
   */
  embed(context: PDFContext, use: FontUse): PDFRef {
    const { fontFile, fontFileLength, toUnicode, dictionaries } = this.subsetOf(use);
    const { descriptor, cidFont, type0 } = dictionaries;
    const fontFileRef = context.register(context.stream(fontFile, { Filter: 'FlateDecode', Length1: fontFileLength }));
    const descriptorRef = context.register(PdfSyntax.of(`${descriptor[0]}${fontFileRef}${descriptor[1]}`));
    const cidFontRef = context.register(PdfSyntax.of(`${cidFont[0]}${descriptorRef}${cidFont[1]}`));
    const toUnicodeRef = context.register(context.stream(toUnicode, { Filter: 'FlateDecode' }));
    return context.register(PdfSyntax.of(`${type0[0]}${cidFontRef}${type0[1]}${toUnicodeRef}${type0[2]}`));
  }

  /** A sealed subset embedded: the cached one of its key, else made (and offered to the cache). */
  private subsetOf(use: FontUse): EmbeddedSubset {
    const key = use.subsetKey;
    const cached = this.subsets.get(key);
    if (cached) return cached;
    const { file } = use.face;
    const fontFile = subsetTrueType(file, use.glyphs, use.stable?.glyphData);
    // `ABCDEF+NotoSans-Regular`: the tag is a hash of the glyph set (PDF 32000 9.6.4).
    const name = subsetName(`${use.tag()}+${use.face.postscriptName}`);
    const face = this.faceOf(use.face);
    face.dictionaries ??= faceDictionaries(use.face);
    const subset = {
      fontFile: this.compressFontFile(fontFile, use.stable),
      fontFileLength: fontFile.length,
      toUnicode: this.compressedToUnicode(use),
      dictionaries: subsetDictionaries(face.dictionaries, name, this.widthsArray(use)),
      glyphs: use.glyphs,
    };
    this.subsets.offer(key, subset);
    return subset;
  }

  /**
   * A subset font file compressed: with a stable subset, its glyph data compressed once, the directory (which
   * would not compress) stored, and the rest (the document's other glyphs and the metrics) as literals
   * (literal-deflate.ts).
   */
  private compressFontFile({ directory, rest }: SubsetFile, stable: StableSubset | undefined): Uint8Array {
    if (!stable) return this.zlib.compress(concatBytes([directory, rest]));
    return zlibOfParts([partOf(directory, storedPiece(directory)), stable.glyphDataPart, stable.fontFileCode.part(rest, this.zlib)]);
  }

  /** The ToUnicode CMap of a font, compressed; with a stable subset, its entries compressed once. */
  private compressedToUnicode(use: FontUse): Uint8Array {
    const { stable } = use;
    const entries = bfcharBlocks(use.toUnicode(), this.toUnicodeSyntax, true);
    if (!stable) return this.zlib.compress(concatBytes([CMAP_HEAD, entries]));
    return zlibOfParts([stable.toUnicodeHead, stable.toUnicodeCode.part(entries, this.zlib)]);
  }

  /**
   * A CIDFont's /W array for a subset's glyphs (new ids from 0), as pdf-lib would write `[0 [widths]]`: the stable
   * subset's start of it (StableSubset.widthsHead), then the other glyphs' widths written by widthList. pdf-lib's
   * objects made a number object and a string per glyph for every new subset, and its toString joins a string per
   * element, which kept in the cache would keep every piece with it.
   */
  private widthsArray({ face, glyphs, stable }: FontUse): string {
    const head = stable ? stable.widthsHead : W_START;
    return `${head}${widthList(face.file, glyphs, stable?.glyphs.length ?? 0, this.widthsSyntax)}] ]`;
  }
}
