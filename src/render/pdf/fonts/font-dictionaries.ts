import { PDFContext, type PDFObject, PDFRef } from 'pdf-lib';
import type { EmbeddableFace } from '../../text/faces.ts';
import { asciiString, PdfSyntax } from '../pdf-strings.ts';

/**
 * A subset's three font dictionaries (FontDescriptor, CIDFontType2, Type0) as pdf-lib writes them, each cut where a
 * reference to another object of the document goes: pdf-lib builds and writes them once per face (faceDictionaries),
 * a subset's name and widths are put in once per subset, and a document puts in its object numbers; pdf-lib's
 * objects were built and written again for every font of every document.
 */
export interface FontDictionaries {
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
 * A font subset's name (`ABCDEF+NotoSans-Regular`) as a PDF name, written as text: pdf-lib's names are interned in a
 * pool that keeps every name for the life of the process, and a name per new glyph set was memory a server never got
 * back.
 */
export function subsetName(name: string): string {
  // A subset's tag and a bundled face's PostScript name are of these characters only, none escaped in a name.
  if (!/^[A-Za-z0-9+-]+$/.test(name)) throw new Error(`subset name ${name} needs escaping`);
  return `/${name}`;
}

/** Where a subset's name and /W array go in its face's dictionaries (faceDictionaries): text no PDF name or array has. */
const SUBSET_NAME = PdfSyntax.of('@name@');
const SUBSET_WIDTHS = PdfSyntax.of('@widths@');

/**
 * A face's subsets' dictionaries with SUBSET_NAME and SUBSET_WIDTHS where a subset's name and widths go, built by
 * pdf-lib (its key order and number syntax): once per face (FontEmbedding keeps them).
 */
export function faceDictionaries(face: EmbeddableFace): FontDictionaries {
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
  return {
    descriptor: cutAtReferences<[string, string]>(descriptor, 2),
    cidFont: cutAtReferences<[string, string]>(cidFont, 2),
    type0: cutAtReferences<[string, string, string]>(type0, 3),
  };
}

/** The dictionaries of a subset named `name` (subsetName), with the /W array `widths` (widthsArray): its face's filled in. */
export function subsetDictionaries(ofFace: FontDictionaries, name: string, widths: string): FontDictionaries {
  const { descriptor, cidFont, type0 } = ofFace;
  // Replaced by functions: a replacement string would read `$` patterns in what it puts in.
  const named = (part: string) => part.replace(SUBSET_NAME.toString(), () => name);
  return {
    descriptor: [named(descriptor[0]), descriptor[1]],
    cidFont: [named(cidFont[0]), cidFont[1].replace(SUBSET_WIDTHS.toString(), () => widths)],
    type0: [named(type0[0]), type0[1], type0[2]],
  };
}
