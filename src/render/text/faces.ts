import type { FallbackFaceInfo } from './font-coverage.ts';
import type { HarfBuzzFace } from './harfbuzz.ts';
import type { ShapedGlyph } from './shaping.ts';
import type { TrueTypeFile } from './truetype.ts';

export type FontWeight = 'regular' | 'bold';

/** A font the PDF embeds: its outlines and metrics. */
export interface EmbeddableFace {
  readonly postscriptName: string;
  readonly file: TrueTypeFile;
}

/**
 * A Latin face (Noto Sans: Latin, Greek, Cyrillic), loaded when the process starts and shaped by shaping.ts:
 * text → positioned glyphs and widths, from tables built once per process.
 */
export interface FontFace extends EmbeddableFace {
  /** Glyph id of a code point, or undefined when the font cannot draw it. */
  glyphOf(codePoint: number): number | undefined;
  /** Whether the face draws every character of a left-to-right text on its own (no bidi, no other font). */
  drawsAlone(text: string): boolean;
  /** Width of a text at a size, in points, kerning included; default-ignorable characters have none. */
  widthOf(text: string, size: number): number;
  /** The glyphs that draw a text, positioned in thousandths of the font size. */
  shape(text: string): ShapedGlyph[];
}

/** A face of another script (fonts/README.md), shaped by HarfBuzz and loaded the first time a text needs it. */
export interface ScriptFace extends EmbeddableFace {
  readonly info: FallbackFaceInfo;
  readonly harfbuzz: HarfBuzzFace;
}
