import { readGlyphPositioning } from './gpos.ts';
import { DEFAULT_IGNORABLE, isDefaultIgnorable } from './text.ts';
import type { TrueTypeFile } from './truetype.ts';

/** One glyph to draw; lengths in thousandths of the font size. */
export interface ShapedGlyph {
  /** 0 when the font has no glyph for the character: the writer refuses such a text. */
  gid: number;
  /** The character it shows, for the ToUnicode map (text search and copy). */
  codePoint: number;
  /**
   * What a glyph of a script face shows, for the ToUnicode map: its share of its cluster's text, in visual order
   * (typeset.ts clusterTexts); '' for a glyph that shows nothing. Absent for the Latin faces, whose glyphs each
   * show `codePoint`.
   */
  text?: string;
  /** Where the next glyph starts, kerning included. */
  advance: number;
  /** Where this glyph is drawn relative to its pen position (a mark placed on its base). */
  dx: number;
  dy: number;
}

/**
 * Text → positioned glyphs, the one place that decides where glyphs go: measuring (wrapping, right-alignment)
 * and drawing both go through it, so what is measured is what is drawn. Default-ignorable characters produce
 * no glyph. A later shaper (HarfBuzz, for more scripts) replaces this implementation behind the same interface.
 */
interface Shaper {
  /** Width of a text, in thousandths of the font size. */
  width(text: string): number;
  shape(text: string): ShapedGlyph[];
  /** Glyph of a code point, or undefined when the font has none. */
  glyphOf(codePoint: number): number | undefined;
  /** Whether the font draws every character of the text and none of them asks for right-to-left order. */
  drawsAlone(text: string): boolean;
}

const BMP = 0x10000;
const IGNORED = 0xffff;
/** Right-to-left marks, embeddings, overrides and isolates: ignorable, but they turn the order of what follows. */
const RIGHT_TO_LEFT_CONTROLS = /[\u061c\u200f\u202b\u202e\u2067]/;
const FIRST_RIGHT_TO_LEFT_CONTROL = 0x061c;

/**
 * The shaper for the bundled fonts: glyphs from the cmap, advances from hmtx, and the GPOS positioning of
 * gpos.ts: pair kerning between letters (across the marks on them) and marks attached to their base or to the
 * mark under them. Measuring is the hot path of layout (every word of every line), so `width` walks the text
 * once over flat tables and allocates nothing; `shape` gives the same advances with the mark offsets.
 */
export function createShaper(file: TrueTypeFile, characters: ReadonlyMap<number, number>): Shaper {
  const scale = 1000 / file.unitsPerEm;
  const positioning = readGlyphPositioning(file);
  const glyphs = new Uint16Array(BMP);
  for (const [codePoint, gid] of characters) if (codePoint < BMP) glyphs[codePoint] = gid;
  for (const [first, last] of DEFAULT_IGNORABLE) if (first < BMP) glyphs.fill(IGNORED, first, Math.min(last, BMP - 1) + 1);
  const advances = Float64Array.from(file.advances, (advance) => advance * scale);
  const isMark = Uint8Array.from({ length: file.numGlyphs }, (_, gid) => (positioning.isMark(gid) ? 1 : 0));

  const glyphOf = (codePoint: number): number | undefined => {
    const gid = codePoint < BMP ? glyphs[codePoint]! : 0;
    return gid === 0 || gid === IGNORED ? undefined : gid;
  };

  const drawsAlone = (text: string): boolean => {
    let highest = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (glyphs[code] === 0) return false;
      if (code > highest) highest = code;
    }
    // The controls are none of the characters below the first of them: most texts are not searched for them.
    return highest < FIRST_RIGHT_TO_LEFT_CONTROL || !RIGHT_TO_LEFT_CONTROLS.test(text);
  };

  const width = (text: string): number => {
    let sum = 0;
    let previous = -1;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdfff) return shape(text).reduce((total, glyph) => total + glyph.advance, 0);
      const gid = glyphs[code]!;
      if (gid === IGNORED) continue;
      sum += advances[gid]!;
      if (isMark[gid]) continue;
      if (previous >= 0) sum += positioning.kern(previous, gid) * scale;
      previous = gid;
    }
    return sum;
  };

  const shape = (text: string): ShapedGlyph[] => {
    const run: ShapedGlyph[] = [];
    let hasMarks = false;
    for (let i = 0; i < text.length; i++) {
      const codePoint = text.codePointAt(i)!;
      if (codePoint >= BMP) i++;
      const gid = codePoint < BMP ? glyphs[codePoint]! : isDefaultIgnorable(codePoint) ? IGNORED : 0;
      if (gid === IGNORED) continue;
      run.push({ gid, codePoint, advance: advances[gid]!, dx: 0, dy: 0 });
      if (isMark[gid]) hasMarks = true;
    }
    let base = -1;
    for (let i = 0; i < run.length; i++) {
      if (isMark[run[i]!.gid]) continue;
      if (base >= 0) run[base]!.advance += positioning.kern(run[base]!.gid, run[i]!.gid) * scale;
      base = i;
    }
    if (!hasMarks) return run;
    // Marks are placed from pen positions (where each glyph's origin is) and the anchors of what they sit on.
    const pen: number[] = [];
    let x = 0;
    for (const glyph of run) {
      pen.push(x);
      x += glyph.advance;
    }
    base = -1;
    for (let i = 0; i < run.length; i++) {
      const glyph = run[i]!;
      if (!isMark[glyph.gid]) {
        base = i;
        continue;
      }
      const under = i > 0 && isMark[run[i - 1]!.gid] ? run[i - 1]! : undefined;
      const onMark = under ? positioning.markToMark(glyph.gid, under.gid) : undefined;
      const onBase = !onMark && base >= 0 ? positioning.markToBase(glyph.gid, run[base]!.gid) : undefined;
      const origin = onMark ? { x: pen[i - 1]! + under!.dx, y: under!.dy } : { x: pen[base]!, y: 0 };
      const offset = onMark ?? onBase;
      if (!offset) continue;
      glyph.dx = origin.x + offset.x * scale - pen[i]!;
      glyph.dy = origin.y + offset.y * scale;
    }
    return run;
  };

  return { glyphOf, drawsAlone, width, shape };
}
