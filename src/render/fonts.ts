import fontkit from '@pdf-lib/fontkit';
import { createShaper, type ShapedGlyph } from './shaping.ts';
import { readTrueType, type TrueTypeFile } from './truetype.ts';

export type FontWeight = 'regular' | 'bold';

/** A font ready for layout: text → positioned glyphs and widths, from tables built once per process. */
export interface FontFace {
  readonly postscriptName: string;
  readonly file: TrueTypeFile;
  /** Glyph id of a code point, or undefined when the font cannot draw it. */
  glyphOf(codePoint: number): number | undefined;
  /** Width of a text at a size, in points, kerning included; default-ignorable characters have none. */
  widthOf(text: string, size: number): number;
  /** The glyphs that draw a text, positioned in thousandths of the font size. */
  shape(text: string): ShapedGlyph[];
}

export type FontSet = Readonly<Record<FontWeight, FontFace>>;

export interface FontFiles {
  regular: Uint8Array;
  bold: Uint8Array;
}

function loadFace(bytes: Uint8Array, postscriptName: string): FontFace {
  const file = readTrueType(bytes);
  const parsed = fontkit.create(bytes);
  const characters = new Map(parsed.characterSet.map((codePoint) => [codePoint, parsed.glyphForCodePoint(codePoint).id]));
  const shaper = createShaper(file, characters);
  return {
    postscriptName,
    file,
    glyphOf: shaper.glyphOf,
    widthOf: (text, size) => (shaper.width(text) * size) / 1000,
    shape: shaper.shape,
  };
}

export function loadFonts(files: FontFiles): FontSet {
  return { regular: loadFace(files.regular, 'NotoSans-Regular'), bold: loadFace(files.bold, 'NotoSans-Bold') };
}
