import { isRightToLeft } from './bidi.ts';
import type { FontWeight } from './faces.ts';
import type { FontSet } from './fonts.ts';
import type { Mark, StructureElement } from './structure.ts';
import type { LineBreak } from './wrap.ts';

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
      weight: FontWeight;
      size: number;
      text: string;
      color: Rgb;
      mark: Mark;
      /** Of a line of wrapped text, how the text goes on after it (a space is drawn after its glyphs). */
      breakAfter: LineBreak | undefined;
    }
  | { kind: 'rect'; x: number; y: number; width: number; height: number; color: Rgb }
  | { kind: 'frame'; x: number; y: number; width: number; height: number; lineWidth: number; color: Rgb }
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number; width: number; color: Rgb }
  | { kind: 'link'; x: number; y: number; width: number; height: number; url: string; element: StructureElement }
  | { kind: 'watermark'; text: string; size: number; color: Rgb }
  /** A QR code's dark modules, each `module` points square, from its top-left corner: one Figure's content. */
  | { kind: 'modules'; x: number; y: number; module: number; modules: readonly (readonly boolean[])[]; element: StructureElement };

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
    if (text !== '')
      this.ops.push({ kind: 'text', x, y, text, weight: style.weight, size: style.size, color: style.color, mark, breakAfter });
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
    this.ops.push({ kind: 'watermark', text, size, color });
  }
}

export interface TextStyle {
  weight: FontWeight;
  size: number;
  color: Rgb;
}
