import type { DrawOp, PageSize } from '../../layout/canvas.ts';
import { PAGINATION } from '../../layout/structure.ts';
import { decimalText as num } from '../ascii-buffer.ts';
import type { DocumentFonts } from '../fonts/document-fonts.ts';
import type { TextStrings } from '../pdf-strings.ts';
import { artifactOperator } from '../structure-tree.ts';
import type { ColourOperators } from './colours.ts';
import type { GlyphRuns } from './glyph-runs.ts';

/**
 * The preview marking across the page, drawn after everything else as one text object. It is real text, but
 * marked as a watermark artifact (not content; the first page says it once as content at its foot, see
 * BusinessDocument.finish) and given its own text as ActualText, so that text extraction keeps it whole and
 * after the content instead of sorting its diagonal letters into the lines it crosses. Written with the document's
 * fonts, glyph runs, colours and text strings.
 */
export class PreviewMarking {
  private readonly fonts: DocumentFonts;
  private readonly glyphRuns: GlyphRuns;
  private readonly colours: ColourOperators;
  private readonly strings: TextStrings;

  constructor(fonts: DocumentFonts, glyphRuns: GlyphRuns, colours: ColourOperators, strings: TextStrings) {
    this.fonts = fonts;
    this.glyphRuns = glyphRuns;
    this.colours = colours;
    this.strings = strings;
  }

  /** The marking's operators on a page of `size`, as one line. */
  of(op: Extract<DrawOp, { kind: 'watermark' }>, size: PageSize): string {
    const { fonts } = this;
    const [run] = op.line.runs;
    const use = fonts.useOf(run!.face);
    const { file } = use.face;
    const { width } = op;
    // The page's diagonal as a direction, from + × ÷ and sqrt only: those are exactly rounded in every engine,
    // where atan2, cos, sin and hypot may differ in the last bit between Node, Bun and workerd.
    const diagonal = Math.sqrt(size.width * size.width + size.height * size.height);
    const [cos, sin] = [size.width / diagonal, size.height / diagonal];
    const lift = (file.capHeight / file.unitsPerEm) * op.size * 0.5;
    const x = size.width / 2 - (width / 2) * cos + lift * sin;
    const y = size.height / 2 - (width / 2) * sin - lift * cos;
    const matrix = [cos, sin, -sin, cos, x, y].map(num).join(' ');
    const actualText = this.strings.of(op.text).toString();
    this.glyphRuns.reset();
    const shown = this.glyphRuns.show(use, run!.glyphs, op.size);
    const operators = this.glyphRuns.out.string(shown.from, shown.to);
    return `${artifactOperator(PAGINATION, 'Watermark')} /Span << /ActualText ${actualText} >> BDC q /GS1 gs BT ${this.colours.of(op.color, 'rg')} /${use.resource} ${num(op.size)} Tf ${matrix} Tm ${operators} ET Q EMC EMC`;
  }
}
