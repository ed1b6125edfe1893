import type { DrawOp, PageSize, Rgb } from '../../layout/canvas.ts';
import { isArtifact, type Mark } from '../../layout/structure.ts';
import type { GlyphRun } from '../../text/typeset.ts';
import { AsciiBuffer, LINE_FEED, decimalText as num, SPACE } from '../ascii-buffer.ts';
import type { DocumentFonts } from '../fonts/document-fonts.ts';
import type { FontUse } from '../fonts/font-use.ts';
import type { TextStrings } from '../pdf-strings.ts';
import { LAYOUT, type StructureTree } from '../structure-tree.ts';
import { ColourOperators } from './colours.ts';
import { GlyphRuns } from './glyph-runs.ts';
import { PreviewMarking } from './preview-marking.ts';
import { LineStretches } from './stretches.ts';

/** Stroke width of emboldened text (a family without a bold face), in thousandths of the font size. */
const EMBOLDEN_STROKE = 30;

const BLACK: Rgb = [0, 0, 0];

/**
 * A stretch of runs drawn with a script face, or with right-to-left punctuation of the Latin face whose glyphs
 * show it in logical order for pdf.js (typeset.ts latinNeutrals), is one /ActualText span holding what it shows
 * in drawing order, without the glyphs that show nothing (FontUse.toUnicode). poppler reads the span as one
 * piece placed from its first glyph to the end of its last, instead of placing each glyph, which keeps the marks
 * of Hebrew and Arabic (drawn before their base, some raised or lowered) and the parts of a split Indic vowel in
 * their cluster; and, as it does with glyphs, it turns right-to-left text into logical order by where it lies,
 * so the span holds it in drawing order like the glyphs. A span is a stretch's, not the line's: the stretches
 * of a right-to-left line are drawn right to left, and a line's span would lie from its first glyph to its
 * last. pdf.js ignores /ActualText and reads the glyphs. Latin text drawn left to right gets no span: its bytes
 * stay. Whether a stretch gets one:
 */
function hasSpan(lineRuns: readonly GlyphRun[], indices: readonly number[]): boolean {
  for (let at = 0; at < indices.length; at++) {
    const run = lineRuns[indices[at]!]!;
    if ('info' in run.face || run.drawnText !== undefined) return true;
  }
  return false;
}

/**
 * Opens a stretch's span (hasSpan) in `out`: its text written as a text string straight from the runs' texts, no
 * string joined per stretch and none per glyph.
 */
function openSpan(out: AsciiBuffer, lineRuns: readonly GlyphRun[], indices: readonly number[]): void {
  out.text('/Span << /ActualText <FEFF');
  for (const index of indices) {
    const run = lineRuns[index]!;
    if (run.drawnText !== undefined) {
      out.utf16Hex(run.drawnText);
      continue;
    }
    for (const glyph of run.glyphs) {
      if (glyph.text !== undefined) out.utf16Hex(glyph.text);
      else if (glyph.codePoint < 0x10000) out.hex4(glyph.codePoint);
      else out.utf16Hex(String.fromCodePoint(glyph.codePoint));
    }
  }
  out.text('> >> BDC ');
}

/**
 * A QR code's dark modules as one filled path: a rectangle per run of dark modules in a row (far fewer than one
 * per module), in the order of the rows.
 */
function modulesPath(op: Extract<DrawOp, { kind: 'modules' }>, flip: (y: number) => number): string {
  const parts: string[] = [];
  op.modules.forEach((row, rowIndex) => {
    for (let column = 0; column < row.length; ) {
      if (!row[column]) {
        column++;
        continue;
      }
      let end = column;
      while (end < row.length && row[end]) end++;
      const x = op.x + column * op.module;
      const y = flip(op.y + (rowIndex + 1) * op.module);
      parts.push(`${num(x)} ${num(y)} ${num((end - column) * op.module)} ${num(op.module)} re`);
      column = end;
    }
  });
  return `${parts.join(' ')} f`;
}

/**
 * The content streams of one document's pages, written one page at a time into one buffer, which is grown to the
 * longest page: a new one for every page grew by doubling (a tenth of what a render allocated, and allocation is
 * what brings the collector's pauses).
 */
export class PageContent {
  private readonly out = new AsciiBuffer();
  private readonly glyphRuns = new GlyphRuns();
  private readonly stretches = new LineStretches();
  private readonly colours = new ColourOperators();
  private readonly marking: PreviewMarking;
  private readonly fonts: DocumentFonts;
  private readonly tree: StructureTree;
  private readonly size: PageSize;

  constructor(fonts: DocumentFonts, tree: StructureTree, size: PageSize, strings: TextStrings) {
    this.fonts = fonts;
    this.tree = tree;
    this.size = size;
    this.marking = new PreviewMarking(fonts, this.glyphRuns, this.colours, strings);
  }

  /**
   * One page's content stream, as a view of the buffer: compressed before the next page's is written. Text runs
   * share one BT … ET and state operators are written only when the font, size or colour changes, which keeps the
   * stream (and its compression) small. Everything drawn is in a marked-content sequence: a text's of its structure
   * element or artifact (texts one after the other of the same element share one), rules and rectangles a layout
   * artifact's. A sequence never crosses BT or ET.
   */
  of(ops: readonly DrawOp[], page: number): Uint8Array {
    const { out, glyphRuns, colours, fonts, tree, size } = this;
    out.reset();
    let marked: Mark | undefined;
    const mark = (next: Mark) => {
      if (next === marked) return;
      if (marked) out.line('EMC');
      marked = next;
      if (out.length) out.char(LINE_FEED);
      tree.open(next, page, out);
    };
    const endMark = () => {
      if (marked) out.line('EMC');
      marked = undefined;
    };
    const watermarks: Extract<DrawOp, { kind: 'watermark' }>[] = [];
    const flip = (y: number) => size.height - y;
    let inText = false;
    let font = '';
    /** The font and size `font` was last chosen for: a text in the same writes no Tf and builds none. */
    let fontUse: FontUse | undefined;
    let fontSize = 0;
    let fill = '';
    let fillColor: Rgb | undefined;
    let lineX = 0;
    let lineY = 0;
    const setFill = (color: Rgb) => {
      // Most texts keep the colour of the one before: compared as numbers before writing the operator.
      if (fillColor && color[0] === fillColor[0] && color[1] === fillColor[1] && color[2] === fillColor[2]) return;
      fillColor = color;
      const operator = colours.of(color, 'rg');
      if (operator === fill) return;
      fill = operator;
      out.line(operator);
    };
    const endText = () => {
      if (!inText) return;
      endMark();
      out.line('ET');
      inText = false;
    };
    // Indexed loops here and in writePdf: the iterators of for…of were a tenth of what a page's writing allocated.
    for (let at = 0; at < ops.length; at++) {
      const op = ops[at]!;
      if (op.kind === 'text') {
        if (!inText) {
          endMark();
          out.line('BT');
          lineX = 0;
          lineY = 0;
        }
        inText = true;
        mark(op.mark);
        if (!isArtifact(op.mark)) tree.text(op.mark, op.text, op.breakAfter);
        setFill(op.color);
        const x = Math.round((op.x - op.spaceBefore) * 100) / 100;
        const y = Math.round(flip(op.y) * 100) / 100;
        const { runs, logicalOrder } = op.line;
        glyphRuns.reset();
        const shown = runs.map((run) => glyphRuns.show(fonts.useOf(run.face), run.glyphs, op.size));
        // Loops, not forEach: a closure per text and one per stretch were garbage for every text drawn.
        const stretches = this.stretches.of(runs, logicalOrder, shown);
        for (let number = 0; number < stretches.length; number++) {
          const stretch = stretches[number]!;
          const span = hasSpan(runs, stretch.runs);
          const move = num(stretch.move) === '0' ? '' : `[${num(stretch.move)}] TJ `;
          for (let place = 0; place < stretch.runs.length; place++) {
            const index = stretch.runs[place]!;
            const run = runs[index]!;
            const use = fonts.useOf(run.face);
            if (use !== fontUse || op.size !== fontSize) {
              [fontUse, fontSize] = [use, op.size];
              const selected = `/${use.resource} ${num(op.size)} Tf`;
              if (selected !== font) {
                font = selected;
                out.line(selected);
              }
            }
            out.line('');
            if (number === 0 && place === 0) {
              out.decimal(x - lineX);
              out.char(SPACE);
              out.decimal(y - lineY);
              out.text(' Td ');
            }
            if (place === 0) {
              out.text(move);
              if (span) openSpan(out, runs, stretch.runs);
            }
            if (run.emboldened) out.text(`2 Tr ${num((EMBOLDEN_STROKE * op.size) / 1000)} w ${colours.of(op.color, 'RG')} `);
            out.append(glyphRuns.out, shown[index]!.from, shown[index]!.to);
            if (run.emboldened) out.text(' 0 Tr');
          }
          if (span) out.line('EMC');
        }
        lineX = x;
        lineY = y;
        continue;
      }
      endText();
      if (op.kind === 'rect' || op.kind === 'frame' || op.kind === 'line') mark(LAYOUT);
      switch (op.kind) {
        case 'rect':
          setFill(op.color);
          out.line(`${num(op.x)} ${num(flip(op.y + op.height))} ${num(op.width)} ${num(op.height)} re f`);
          break;
        case 'frame':
          out.line(
            `${colours.of(op.color, 'RG')} ${num(op.lineWidth)} w ${num(op.x)} ${num(flip(op.y + op.height))} ${num(op.width)} ${num(op.height)} re S`,
          );
          break;
        case 'line':
          out.line(
            `${colours.of(op.color, 'RG')} ${num(op.width)} w ${num(op.x1)} ${num(flip(op.y1))} m ${num(op.x2)} ${num(flip(op.y2))} l S`,
          );
          break;
        case 'watermark':
          watermarks.push(op);
          break;
        case 'link':
          break;
        case 'modules':
          mark(op.element);
          setFill(BLACK);
          out.line(modulesPath(op, flip));
          break;
      }
    }
    endText();
    endMark();
    for (const watermark of watermarks) out.line(this.marking.of(watermark, size));
    return out.view();
  }
}
