import type { ShapedGlyph } from '../../text/shaping.ts';
import { AsciiBuffer, GREATER, LESS, decimalText as num, SPACE } from '../ascii-buffer.ts';
import type { FontUse } from '../fonts/font-use.ts';
import { widthOf } from '../fonts/widths.ts';

/**
 * The glyph runs of one text as TJ operators (show), written into a buffer of their own before they are copied into
 * the page's content in drawing order: one for a document, reset for every text. It keeps where its TJ arrays stand
 * (whether an array, and a run of glyph ids in it, is open) in fields: three closures over the state per call were
 * garbage for every text drawn.
 */
export class GlyphRuns {
  readonly out = new AsciiBuffer();
  /** Where the glyphs being shown start in `out`. */
  private from = 0;
  private inArray = false;
  private inRun = false;

  /** Empties the buffer, before a text's runs are shown. */
  reset(): void {
    this.out.reset();
  }

  /**
   * The operators that show glyphs at the current point, written at the end of `out`: glyph ids in TJ arrays, with
   * the kerning and mark offsets the shaper gave as adjustments between glyphs, and a mark raised or lowered by
   * text rise; and how far they move the pen, in thousandths of the font size, as a viewer computes it from /W and
   * the adjustments.
   */
  show(use: FontUse, glyphs: readonly ShapedGlyph[], size: number): { from: number; to: number; advance: number } {
    const { out } = this;
    const { file } = use.face;
    const scale = 1000 / file.unitsPerEm;
    const from = out.length;
    let advance = 0;
    let shift = 0;
    let rise = 0;
    this.from = from;
    this.inArray = false;
    this.inRun = false;
    for (const glyph of glyphs) {
      shift += glyph.dx;
      if (Math.abs(shift) >= 0.005) {
        this.flushRun();
        this.openArray();
        // The adjustment as written: rounded to hundredths.
        out.decimal(-shift);
        advance -= Math.round(-shift * 100) / 100;
      }
      if (glyph.dy !== rise) {
        this.flushArray();
        rise = glyph.dy;
        if (out.length > from) out.char(SPACE);
        out.text(`${num((rise * size) / 1000)} Ts`);
      }
      this.openRun();
      out.hex4(use.idOf(glyph));
      advance += widthOf(file, glyph.gid);
      shift = glyph.advance - file.advances[glyph.gid]! * scale - glyph.dx;
      // pdf.js skips a glyph that shows nothing together with the adjustment after it in the same array.
      if (glyph.text === '') this.flushArray();
    }
    this.flushArray();
    if (rise !== 0) out.text(out.length > from ? ' 0 Ts' : '0 Ts');
    return { from, to: out.length, advance };
  }

  private flushRun(): void {
    if (this.inRun) this.out.char(GREATER);
    this.inRun = false;
  }

  private flushArray(): void {
    this.flushRun();
    if (this.inArray) this.out.text('] TJ');
    this.inArray = false;
  }

  private openArray(): void {
    if (!this.inArray) this.out.text(this.out.length > this.from ? ' [' : '[');
    this.inArray = true;
  }

  /** Opens a run of glyph ids (`<`), in an array. */
  private openRun(): void {
    this.openArray();
    if (!this.inRun) this.out.char(LESS);
    this.inRun = true;
  }
}
