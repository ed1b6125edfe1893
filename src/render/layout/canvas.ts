import type { FontSet, TextFace } from '../fonts.ts';
import { isRightToLeft } from '../text/bidi.ts';
import type { FontWeight } from '../text/faces.ts';
import type { SetLine } from '../text/typeset.ts';
import type { LineBreak } from '../text/wrap.ts';
import type { Mark, StructureElement } from './structure.ts';

export type Rgb = readonly [number, number, number];

/**
 * What a page draws, in points from the top-left corner (y grows downwards; text y is the baseline). A text says
 * what it is to a reader (`mark`, see structure.ts); a link names the Link element of its text; rules, frames and
 * rectangles are always layout artifacts.
 */
export type DrawOp =
  | {
      kind: 'text';
      x: number;
      y: number;
      size: number;
      text: string;
      /** Its text and the space drawnTextOf adds, set (TextFace.drawnLine) once: the writer writes these runs as they are. */
      line: SetLine;
      /** How far left of `x` the line is drawn from (spaceBeforeStart). */
      spaceBefore: number;
      color: Rgb;
      mark: Mark;
      /** Of a line of wrapped text, how the text goes on after it (a space is drawn after its glyphs). */
      breakAfter: LineBreak | undefined;
    }
  | { kind: 'rect'; x: number; y: number; width: number; height: number; color: Rgb }
  | { kind: 'frame'; x: number; y: number; width: number; height: number; lineWidth: number; color: Rgb }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; width: number; color: Rgb }
  | { kind: 'link'; x: number; y: number; width: number; height: number; url: string; element: StructureElement }
  /** Bold text, set in `line` (TextFace.drawnLine), `width` points long. */
  | { kind: 'watermark'; text: string; size: number; color: Rgb; line: SetLine; width: number }
  /** A QR code's dark modules, each `module` points square, from its top-left corner: one Figure's content. */
  | { kind: 'modules'; x: number; y: number; module: number; modules: readonly (readonly boolean[])[]; element: StructureElement };

/**
 * What a text draws: its text, and a space after it where the value goes on after a space on the next line (a
 * space has no ink, and tells a reader that joins the lines of an element, as poppler does, where words part).
 */
const drawnTextOf = (text: string, breakAfter: LineBreak | undefined): string => (breakAfter === 'space' ? `${text} ` : text);

/**
 * How far left of where its text starts a text is drawn from: a right-to-left line's space after it stands at its
 * left end (Unicode's rule L1 puts a line's trailing space at the paragraph's level), so the glyphs stay where the
 * layout put them.
 */
function spaceBeforeStart(text: string, drawn: string, face: TextFace, size: number): number {
  if (drawn === text || !isRightToLeft(text)) return 0;
  return face.widthOf(drawn, size) - face.widthOf(text, size);
}

export interface PageSize {
  width: number;
  height: number;
}

/** A page being laid out: drawing calls append to its display list. */
export class Canvas {
  readonly ops: DrawOp[] = [];
  readonly fonts: FontSet;

  constructor(fonts: FontSet) {
    this.fonts = fonts;
  }

  text(x: number, y: number, text: string, style: TextStyle, mark: Mark, breakAfter?: LineBreak): void {
    if (text === '') return;
    const face = this.fonts[style.weight];
    const drawn = drawnTextOf(text, breakAfter);
    const spaceBefore = spaceBeforeStart(text, drawn, face, style.size);
    this.ops.push({
      kind: 'text',
      x,
      y,
      text,
      line: face.drawnLine(drawn),
      spaceBefore,
      size: style.size,
      color: style.color,
      mark,
      breakAfter,
    });
  }

  /**
   * A line of a value in a box from `left` to `right`, at the box's start edge: the left for a left-to-right line,
   * the right for a right-to-left one (docs/rendering.md: an Arabic or Hebrew value reads from the right edge of its box).
   */
  textFromStart(left: number, right: number, y: number, text: string, style: TextStyle, mark: Mark, breakAfter?: LineBreak): void {
    if (isRightToLeft(text)) this.textRight(right, y, text, style, mark, breakAfter);
    else this.text(left, y, text, style, mark, breakAfter);
  }

  /** Right-aligned text ending at `right` (a space after it is drawn beyond). */
  textRight(right: number, y: number, text: string, style: TextStyle, mark: Mark, breakAfter?: LineBreak): void {
    this.text(right - this.fonts[style.weight].widthOf(text, style.size), y, text, style, mark, breakAfter);
  }

  rect(x: number, y: number, width: number, height: number, color: Rgb): void {
    this.ops.push({ kind: 'rect', x, y, width, height, color });
  }

  frame(x: number, y: number, width: number, height: number, lineWidth: number, color: Rgb): void {
    this.ops.push({ kind: 'frame', x, y, width, height, lineWidth, color });
  }

  line(x1: number, y1: number, x2: number, y2: number, width: number, color: Rgb): void {
    this.ops.push({ kind: 'line', x1, y1, x2, y2, width, color });
  }

  /** A QR code drawn as vector squares, the content of its Figure element `element`. */
  modules(x: number, y: number, module: number, modules: readonly (readonly boolean[])[], element: StructureElement): void {
    this.ops.push({ kind: 'modules', x, y, module, modules, element });
  }

  /** A clickable area; `element` is the Link element of the text it covers. */
  link(x: number, y: number, width: number, height: number, url: string, element: StructureElement): void {
    this.ops.push({ kind: 'link', x, y, width, height, url, element });
  }

  /** Text across the page on its diagonal, centred, drawn translucent over the content. */
  watermark(text: string, size: number, color: Rgb): void {
    const { bold } = this.fonts;
    this.ops.push({ kind: 'watermark', text, size, color, line: bold.drawnLine(text), width: bold.widthOf(text, size) });
  }
}

export interface TextStyle {
  weight: FontWeight;
  size: number;
  color: Rgb;
}
