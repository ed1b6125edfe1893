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

function loadFace(bytes: Uint8Array, postscriptName: string): FontFace {
  const file = readTrueType(bytes);
  const parsed = fontkit.create(bytes);
  const glyphs = new Map<number, number>();
  const advances = new Map<number, number>();
  const scale = 1000 / file.unitsPerEm;
  for (const codePoint of parsed.characterSet) {
    const gid = parsed.glyphForCodePoint(codePoint).id;
    if (gid === 0) continue;
    glyphs.set(codePoint, gid);
    advances.set(codePoint, file.advances[gid]! * scale);
  }
  const missingAdvance = file.advances[0]! * scale;
  const advanceOf = (codePoint: number) => advances.get(codePoint) ?? missingAdvance;
  return {
    postscriptName,
    file,
    glyphOf: (codePoint) => glyphs.get(codePoint),
    advanceOf,
    widthOf(text, size) {
      let width = 0;
      for (let i = 0; i < text.length; i++) {
        const codePoint = text.codePointAt(i)!;
        if (codePoint > 0xffff) i++;
        width += advanceOf(codePoint);
      }
      return (width * size) / 1000;
    },
  };
}

export function loadFonts(files: FontFiles): FontSet {
  return { regular: loadFace(files.regular, 'NotoSans-Regular'), bold: loadFace(files.bold, 'NotoSans-Bold') };
}
