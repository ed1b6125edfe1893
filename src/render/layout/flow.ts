import { SCRIPTS, scriptPattern } from '../../contract/scripts.ts';
import type { FontSet } from '../fonts.ts';
import { wrapText } from '../text/wrap.ts';
import { Canvas, type PageSize, type TextStyle } from './canvas.ts';
import type { Mark } from './structure.ts';

/** Lines of text are set 1.45 times their size apart. */
export function lineHeight(style: TextStyle): number {
  return style.size * 1.45;
}

/** The scripts whose lines get space above them (scripts.json `lineGap`), each with a pattern of its letters. */
const TALL_ROWS = SCRIPTS.filter((script) => script.lineGap > 0);
const TALL_SCRIPTS = TALL_ROWS.map((script) => ({ pattern: scriptPattern([script]), gap: script.lineGap }));
/** Any of them: one test of a line that holds none (nearly every line). */
const TALL = TALL_ROWS.length ? scriptPattern(TALL_ROWS) : undefined;

/** The space above a line of `text` in `style`: none, unless it holds a script whose stacks stand taller. */
export function gapAbove(text: string, style: TextStyle): number {
  if (!TALL?.test(text)) return 0;
  return Math.max(...TALL_SCRIPTS.filter((script) => script.pattern.test(text)).map((script) => script.gap)) * style.size;
}

interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/**
 * Top-to-bottom layout over as many pages as it takes: a cursor `y`, and a page break whenever what comes next
 * does not fit above the bottom margin. `continuation` draws the running head of every page after the first and
 * returns where content starts on it.
 */
export class Flow {
  readonly pages: Canvas[] = [];
  readonly size: PageSize;
  readonly fonts: FontSet;
  readonly margins: Margins;
  page!: Canvas;
  y = 0;
  /** Where content started on the current page; nothing is gained by breaking a page there. */
  private pageStart = 0;
  /**
   * Given to the constructor, never assigned afterwards: V8 allocates a function literal assigned to a property
   * (`flow.continuation = (page) => …`) in old space, taking it for a method, and such a closure, dead with its
   * render, kept the document it captured alive through the next two scavenges, which then copied and promoted
   * every render's pages and structure (the render bench's tail, `node test/bench/gc.ts`).
   */
  private readonly continuation: ((page: Canvas) => number) | undefined;
  /** Called after every page break (a table repeats its column header here). */
  private afterBreak: (() => void) | undefined;

  constructor(size: PageSize, fonts: FontSet, margins: Margins, continuation?: (page: Canvas) => number) {
    this.continuation = continuation;
    this.size = size;
    this.fonts = fonts;
    this.margins = margins;
    this.addPage();
    this.y = this.pageStart = margins.top;
  }

  get left(): number {
    return this.margins.left;
  }
  get right(): number {
    return this.size.width - this.margins.right;
  }
  get width(): number {
    return this.right - this.left;
  }
  get bottom(): number {
    return this.size.height - this.margins.bottom;
  }

  private addPage(): void {
    this.page = new Canvas(this.fonts);
    this.pages.push(this.page);
  }

  breakPage(): void {
    this.addPage();
    this.y = this.pageStart = this.continuation ? this.continuation(this.page) : this.margins.top;
    this.afterBreak?.();
  }

  /** Moves to a new page unless `height` fits below the cursor. A block taller than a page starts at the top. */
  ensure(height: number): void {
    if (this.y + height > this.bottom && this.y > this.pageStart) this.breakPage();
  }

  /** Runs `body` with `repeat` drawn again after any page break inside it. */
  withRepeatedHeader(repeat: () => void, body: () => void): void {
    const previous = this.afterBreak;
    this.afterBreak = repeat;
    try {
      body();
    } finally {
      this.afterBreak = previous;
    }
  }

  /**
   * Wrapped text from the left margin (a right-to-left paragraph from the right of `width`), line by line, breaking
   * pages between lines; every line is content of `mark`.
   */
  paragraph(text: string, style: TextStyle, mark: Mark, width: number = this.width): void {
    const height = lineHeight(style);
    for (const line of wrapText(text, this.fonts[style.weight], style.size, width)) {
      const above = gapAbove(line.text, style);
      this.ensure(height + above);
      this.y += above;
      this.page.textFromStart(this.left, this.left + width, this.y + style.size, line.text, style, mark, line.breakAfter);
      this.y += height;
    }
  }

  gap(height: number): void {
    this.y += height;
  }
}
