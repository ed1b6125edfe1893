import type { EmbeddableFace } from '../../text/faces.ts';
import { type AsciiBuffer, SPACE } from '../ascii-buffer.ts';

/** A glyph's width as the font's /W array gives it, in thousandths of the font size: what a viewer moves the pen by. */
export const widthOf = (file: EmbeddableFace['file'], gid: number) => Math.round(file.advances[gid]! * (1000 / file.unitsPerEm));

/** How a /W array of widths from glyph 0 starts. */
export const W_START = '[ 0 [ ';

/**
 * The widths of `glyphs` from index `from` on, each followed by a space, as a /W array lists them: written into
 * `out`, then read back as a string.
 */
export function widthList(file: EmbeddableFace['file'], glyphs: readonly number[], from: number, out: AsciiBuffer): string {
  out.reset();
  for (let index = from; index < glyphs.length; index++) {
    out.integer(widthOf(file, glyphs[index]!));
    out.char(SPACE);
  }
  return out.string(0, out.length);
}
