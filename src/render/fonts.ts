import fontkit from '@pdf-lib/fontkit';
import { readTrueType, type TrueTypeFile } from './truetype.ts';

export type FontWeight = 'regular' | 'bold';

/** A font ready for layout: character → glyph and advance, in tables built once per process. */
export interface FontFace {
  readonly postscriptName: string;
  readonly file: TrueTypeFile;
  /** Glyph id of a code point, or undefined when the font cannot draw it. */
  glyphOf(codePoint: number): number | undefined;
  /** Advance of a code point in thousandths of the font size. */
  advanceOf(codePoint: number): number;
  /** Width of a text at a size, in points. */
  widthOf(text: string, size: number): number;
}

export type FontSet = Readonly<Record<FontWeight, FontFace>>;

export interface FontFiles {
  regular: Uint8Array;
  bold: Uint8Array;
}

const BMP = 0x10000;

/**
 * Measuring is the hot path of layout, so character → glyph and → advance are flat tables over the Basic
 * Multilingual Plane (the bundled fonts have nothing beyond it), filled once from fontkit's cmap.
 */
function loadFace(bytes: Uint8Array, postscriptName: string): FontFace {
  const file = readTrueType(bytes);
  const parsed = fontkit.create(bytes);
  const glyphs = new Uint16Array(BMP);
  const scale = 1000 / file.unitsPerEm;
  const advances = new Float32Array(BMP).fill(file.advances[0]! * scale);
  for (const codePoint of parsed.characterSet) {
    if (codePoint >= BMP) continue;
    const gid = parsed.glyphForCodePoint(codePoint).id;
    glyphs[codePoint] = gid;
    advances[codePoint] = file.advances[gid]! * scale;
  }
  const advanceOf = (codePoint: number) => (codePoint < BMP ? advances[codePoint]! : advances[0]!);
  return {
    postscriptName,
    file,
    glyphOf: (codePoint) => (codePoint < BMP && glyphs[codePoint]! !== 0 ? glyphs[codePoint] : undefined),
    advanceOf,
    widthOf(text, size) {
      let width = 0;
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i);
        width += code >= 0xd800 && code <= 0xdfff ? advances[0]! : advances[code]!;
      }
      return (width * size) / 1000;
    },
  };
}

export function loadFonts(files: FontFiles): FontSet {
  return { regular: loadFace(files.regular, 'NotoSans-Regular'), bold: loadFace(files.bold, 'NotoSans-Bold') };
}
