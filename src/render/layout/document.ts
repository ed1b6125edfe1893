import type { Paper } from '../../contract/document-options.ts';
import type { FontSet } from '../fonts.ts';
import { type WrappedLine, wrapText } from '../text/wrap.ts';
import type { Canvas, PageSize, Rgb, TextStyle } from './canvas.ts';
import { Flow, lineHeight } from './flow.ts';
import { drawQrBill, QR_BILL_HEIGHT, QR_BILL_WIDTH, type QrBill } from './qr-bill.ts';
import { type Mark, PAGINATION, StructureElement } from './structure.ts';

export const PAPER_SIZES: Record<Paper, PageSize> = {
  a4: { width: 595.28, height: 841.89 },
  letter: { width: 612, height: 792 },
};

export const PREVIEW_MARK = 'PREVIEW · NOT A VALID DOCUMENT';

const INK: Rgb = [0.11, 0.13, 0.16];
const MUTED: Rgb = [0.4, 0.43, 0.48];
const RULE: Rgb = [0.84, 0.86, 0.89];
const FILL: Rgb = [0.95, 0.96, 0.97];
const ACCENT: Rgb = [0.1, 0.3, 0.55];
const WARNING: Rgb = [0.75, 0.12, 0.12];
const PAID: Rgb = [0.13, 0.5, 0.27];

const STYLES = {
  heading: { weight: 'bold', size: 22, color: ACCENT },
  name: { weight: 'bold', size: 12, color: INK },
  party: { weight: 'bold', size: 10.5, color: INK },
  body: { weight: 'regular', size: 9, color: INK },
  muted: { weight: 'regular', size: 9, color: MUTED },
  label: { weight: 'bold', size: 8.5, color: MUTED },
  tableHead: { weight: 'bold', size: 8, color: MUTED },
  strong: { weight: 'bold', size: 9.5, color: INK },
  emphasis: { weight: 'bold', size: 11, color: INK },
  link: { weight: 'regular', size: 9, color: ACCENT },
  footer: { weight: 'regular', size: 7.5, color: MUTED },
  amount: { weight: 'bold', size: 20, color: INK },
  stamp: { weight: 'bold', size: 16, color: PAID },
  warning: { weight: 'bold', size: 7.5, color: WARNING },
} as const satisfies Record<string, TextStyle>;

const SECTION_GAP = 18;
/** The side of a payment QR code: 96 points (34 mm), which a phone reads from an arm's length on paper. */
const PAYMENT_CODE_SIDE = 96;
/**
 * The grid of the right half: the document facts at the top and the totals block share one block width and
 * one inset, and the inset is the table's cell padding, so the totals figures end where the Amount column's do.
 */
const CELL_PADDING = 4.5;
const RIGHT_BLOCK = 260;
const GAP_AFTER_TABLE = 10;
/** Item rows kept on the page of the totals, so that the totals never stand alone (the last two, or all). */
const ROWS_WITH_TOTALS = 2;

/** The seller block every template prints at the top (spec 2.5). */
export interface Seller {
  seller_name: string;
  seller_details?: string | undefined;
  tax_id?: string | undefined;
}

/**
 * A table column. A `text` column (the first) wraps and takes the width the others leave; a `figure` column is
 * right-aligned, never wraps, and is as wide as its widest value or title in the document.
 */
export interface Column {
  title: string;
  kind: 'text' | 'figure';
}

export interface TotalsRow {
  label: string;
  value: string;
  /** `strong` has a rule above; `emphasis` sits in a shaded band. */
  weight?: 'strong' | 'emphasis';
}

/**
 * The building blocks every template lays out with: the head (seller and document facts), parties, sections,
 * an items table that repeats its header on each page, a totals block kept together, and the page furniture
 * (running head, `Page N of M`, preview marking) added once every page exists. Each block adds its structure
 * elements to `structure` in reading order as it is drawn; the page furniture is drawn as artifacts.
 */
export class BusinessDocument {
  readonly flow: Flow;
  readonly fonts: FontSet;
  readonly structure = new StructureElement('Document');
  /** Pages whose foot a Swiss QR-bill takes: their footer goes above it, at this height. */
  private readonly footTops = new Map<Canvas, number>();

  constructor(fonts: FontSet, paper: Paper, runningHead: string) {
    this.fonts = fonts;
    this.flow = new Flow(PAPER_SIZES[paper], fonts, { top: 50, right: 50, bottom: 64, left: 50 }, (page) => {
      const line = this.fit(runningHead, STYLES.footer, this.flow.width);
      page.text(this.flow.left, this.flow.margins.top - 14, line, STYLES.footer, PAGINATION);
      page.line(this.flow.left, this.flow.margins.top - 8, this.flow.right, this.flow.margins.top - 8, 0.5, RULE);
      return this.flow.margins.top + 4;
    });
  }

  /** Text cut to a width with an ellipsis: for one-line furniture such as the running head. */
  private fit(text: string, style: TextStyle, width: number): string {
    const face = this.fonts[style.weight];
    if (face.widthOf(text, style.size) <= width) return text;
    // The longest prefix that fits with its ellipsis, by bisection: a running head is cut on every page.
    const chars = [...text];
    const cut = (length: number) => `${chars.slice(0, length).join('')}…`;
    let [fits, low, high] = [1, 2, chars.length - 1];
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (face.widthOf(cut(middle), style.size) <= width) [fits, low] = [middle, middle + 1];
      else high = middle - 1;
    }
    return cut(fits);
  }

  /** A paragraph of text in its own P element. */
  private paragraph(text: string, style: TextStyle, width?: number): void {
    this.flow.paragraph(text, style, this.structure.add('P'), width);
  }

  private wrapped(text: string, style: TextStyle, width: number): WrappedLine[] {
    return wrapText(text, this.fonts[style.weight], style.size, width);
  }

  /**
   * Seller on the left (name, details, tax id), the heading and the document facts on the right; a fact or a
   * seller line without a value is left off with its label. The right column is short and stays on the first
   * page; a long seller block flows on. Read as the heading, the seller, then the facts as a table of label and
   * value rows.
   */
  head(heading: string, seller: Seller, allFacts: readonly (readonly [string, string | undefined])[]): void {
    const facts = allFacts.filter((fact): fact is readonly [string, string] => fact[1] !== undefined);
    const { flow } = this;
    const labelWidth = 72;
    const sellerWidth = flow.width - RIGHT_BLOCK - 24;
    const startPage = flow.page;
    const top = flow.y;
    const headingElement = this.structure.add('H1');
    const sellerElements = [seller.seller_name, seller.seller_details, seller.tax_id].map((value) =>
      value ? this.structure.add('P') : undefined,
    );
    const factsTable = facts.length ? this.structure.add('Table') : undefined;

    const page = flow.page;
    const left = flow.right - RIGHT_BLOCK + CELL_PADDING;
    const right = flow.right - CELL_PADDING;
    let y = top + STYLES.heading.size;
    page.textRight(right, y, heading, STYLES.heading, headingElement);
    y += 16;
    for (const [label, value] of facts) {
      const row = factsTable!.add('TR');
      const [labelCell, valueCell] = [row.add('TH', 'Row'), row.add('TD')];
      const lines = this.wrapped(value, STYLES.body, right - left - labelWidth);
      page.text(left, y + STYLES.body.size, label, STYLES.muted, labelCell);
      for (const line of lines) {
        page.textRight(right, y + STYLES.body.size, line.text, STYLES.body, valueCell, line.breakAfter);
        y += lineHeight(STYLES.body);
      }
    }
    const factsBottom = y;

    const [nameElement, detailsElement, taxIdElement] = sellerElements;
    flow.paragraph(seller.seller_name, STYLES.name, nameElement!, sellerWidth);
    flow.gap(2);
    if (seller.seller_details) flow.paragraph(seller.seller_details, STYLES.muted, detailsElement!, sellerWidth);
    if (seller.tax_id) flow.paragraph(`Tax / VAT No. ${seller.tax_id}`, STYLES.muted, taxIdElement!, sellerWidth);
    if (flow.page === startPage) flow.y = Math.max(flow.y, factsBottom);
    flow.gap(SECTION_GAP + 6);
  }

  /** A label such as Bill to, then a party's name and address lines. */
  party(label: string, name: string, details?: string): void {
    const width = Math.min(this.flow.width, 300);
    this.label(label);
    this.paragraph(name, STYLES.party, width);
    if (details) this.paragraph(details, STYLES.muted, width);
    this.flow.gap(SECTION_GAP);
  }

  /**
   * A label printed as the contract writes it (Bill to, Pay online): set apart by weight, size and colour, not
   * case; a heading of the block under it (H2), so that a screen reader can move from block to block.
   */
  private label(text: string): void {
    this.flow.ensure(lineHeight(STYLES.label) + lineHeight(STYLES.body) * 2);
    this.flow.page.text(this.flow.left, this.flow.y + STYLES.label.size, text, STYLES.label, this.structure.add('H2'));
    this.flow.gap(lineHeight(STYLES.label) + 2);
  }

  /** A labelled block of free text. */
  section(label: string, text: string): void {
    this.label(label);
    this.paragraph(text, STYLES.body);
    this.flow.gap(SECTION_GAP);
  }

  /**
   * A labelled payment QR code (Pay by scanning): the code as vector squares, PAYMENT_CODE_SIDE points wide, with
   * the quiet zone of four modules kept clear around it, and beside it the lines that say what it carries. The code
   * is a Figure whose alternative text names the scheme, the payee and the amount; the lines are paragraphs.
   */
  paymentCode(label: string, code: { modules: readonly (readonly boolean[])[]; lines: readonly string[]; alt: string }): void {
    const { flow } = this;
    const module = PAYMENT_CODE_SIDE / code.modules.length;
    const quiet = 4 * module;
    flow.ensure(lineHeight(STYLES.label) + 2 + quiet * 2 + PAYMENT_CODE_SIDE);
    this.label(label);
    flow.gap(quiet);
    const figure = this.structure.add('Figure');
    figure.alt = code.alt;
    const top = flow.y;
    flow.page.modules(flow.left, top, module, code.modules, figure);
    const textLeft = flow.left + PAYMENT_CODE_SIDE + Math.max(quiet, 12);
    const width = flow.left + flow.width - textLeft;
    let y = top;
    for (const line of code.lines) {
      const element = this.structure.add('P');
      for (const wrapped of this.wrapped(line, STYLES.body, width)) {
        flow.page.text(textLeft, y + STYLES.body.size, wrapped.text, STYLES.body, element, wrapped.breakAfter);
        y += lineHeight(STYLES.body);
      }
    }
    flow.y = Math.max(top + PAYMENT_CODE_SIDE + quiet, y);
    flow.gap(SECTION_GAP);
  }

  /**
   * A Swiss QR-bill (payment part and receipt, qr-bill.ts) at the foot of the page, the page's footer above it: last
   * in the document, on a page of its own when the page leaves no room for it. The slip is 210 mm wide, A4's width;
   * on Letter it is centred.
   */
  qrBill(bill: QrBill): void {
    const { flow } = this;
    flow.ensure(QR_BILL_HEIGHT);
    const top = flow.size.height - QR_BILL_HEIGHT;
    drawQrBill(flow.page, this.fonts, this.structure, bill, (flow.size.width - QR_BILL_WIDTH) / 2, top, flow.size.width);
    this.footTops.set(flow.page, top);
    flow.y = flow.bottom;
  }

  /** A labelled link, printed in full and clickable to exactly that text, line by line: one Link in a paragraph. */
  link(label: string, url: string): void {
    this.label(label);
    const { flow } = this;
    const linkElement = this.structure.add('P').add('Link');
    const height = lineHeight(STYLES.link);
    for (const line of this.wrapped(url, STYLES.link, flow.width)) {
      flow.ensure(height);
      flow.page.text(flow.left, flow.y + STYLES.link.size, line.text, STYLES.link, linkElement, line.breakAfter);
      const width = this.fonts.regular.widthOf(line.text, STYLES.link.size);
      flow.page.line(
        flow.left,
        flow.y + STYLES.link.size + 1.5,
        flow.left + width,
        flow.y + STYLES.link.size + 1.5,
        0.5,
        STYLES.link.color,
      );
      flow.page.link(flow.left, flow.y, width, height, url, linkElement);
      flow.y += height;
    }
    flow.gap(SECTION_GAP);
  }

  /**
   * Label–value lines, such as payment method and reference, read as a table of rows headed by their labels; a
   * line without a value is left off.
   */
  facts(allRows: readonly (readonly [string, string | undefined])[]): void {
    const { flow } = this;
    const labelWidth = 120;
    const rows = allRows.filter((row): row is readonly [string, string] => row[1] !== undefined);
    const table = rows.length ? this.structure.add('Table') : undefined;
    for (const [label, value] of rows) {
      const row = table!.add('TR');
      const [labelCell, valueCell] = [row.add('TH', 'Row'), row.add('TD')];
      const lines = this.wrapped(value, STYLES.body, flow.width - labelWidth);
      flow.ensure(lineHeight(STYLES.body));
      flow.page.text(flow.left, flow.y + STYLES.body.size, label, STYLES.muted, labelCell);
      for (const line of lines) {
        flow.ensure(lineHeight(STYLES.body));
        flow.page.textFromStart(
          flow.left + labelWidth,
          flow.right,
          flow.y + STYLES.body.size,
          line.text,
          STYLES.body,
          valueCell,
          line.breakAfter,
        );
        flow.y += lineHeight(STYLES.body);
      }
    }
    flow.gap(SECTION_GAP);
  }

  /**
   * The items table: its text column wraps, figure columns never do; rows never split, and the header repeats on
   * every page it reaches. The last rows are kept on the page of `totals`, which follows right after it. Read as
   * a table whose first row holds the column headers; a header repeated on a later page is a pagination
   * artifact, so that it is read once.
   */
  itemsWithTotals(columns: Column[], rows: string[][], totals: TotalsRow[]): void {
    const { flow } = this;
    const figureWidth = (index: number) =>
      Math.max(
        this.fonts[STYLES.tableHead.weight].widthOf(columns[index]!.title, STYLES.tableHead.size),
        ...rows.map((row) => this.fonts[STYLES.body.weight].widthOf(row[index]!, STYLES.body.size)),
      ) +
      CELL_PADDING * 2;
    const fixed = columns.map((column, index) => (column.kind === 'figure' ? figureWidth(index) : 0));
    const rest = flow.width - fixed.reduce((a, b) => a + b, 0);
    const widths = columns.map((column, index) => (column.kind === 'figure' ? fixed[index]! : rest));
    const xs = widths.map((_, index) => flow.left + widths.slice(0, index).reduce((a, b) => a + b, 0));
    const headerHeight = 20;
    const table = this.structure.add('Table');
    const headerRow = table.add('TR');
    const headerCells = columns.map(() => headerRow.add('TH', 'Column'));

    const drawHeader = (marks: readonly Mark[]) => {
      flow.page.rect(flow.left, flow.y, flow.width, headerHeight, FILL);
      columns.forEach((column, index) => {
        const y = flow.y + 13;
        if (column.kind === 'figure')
          flow.page.textRight(xs[index]! + widths[index]! - CELL_PADDING, y, column.title, STYLES.tableHead, marks[index]!);
        else flow.page.text(xs[index]! + CELL_PADDING, y, column.title, STYLES.tableHead, marks[index]!);
      });
      flow.y += headerHeight;
    };

    const rowLines = rows.map((row) =>
      row.map((cell, index) =>
        columns[index]!.kind === 'figure' ? [{ text: cell }] : this.wrapped(cell, STYLES.body, widths[index]! - CELL_PADDING * 2),
      ),
    );
    const heights = rowLines.map((cells) => Math.max(...cells.map((lines) => lines.length)) * lineHeight(STYLES.body) + CELL_PADDING * 2);
    const keptFrom = Math.max(0, rows.length - ROWS_WITH_TOTALS);
    const keptHeight = heights.slice(keptFrom).reduce((a, b) => a + b, 0) + GAP_AFTER_TABLE + this.totalsHeight(totals);
    flow.ensure(headerHeight + (keptFrom === 0 ? keptHeight : heights[0]!));
    drawHeader(headerCells);
    const repeated = columns.map(() => PAGINATION);
    flow.withRepeatedHeader(
      () => drawHeader(repeated),
      () => {
        rowLines.forEach((cells, rowIndex) => {
          const height = heights[rowIndex]!;
          if (rowIndex === keptFrom && keptFrom > 0) flow.ensure(keptHeight);
          flow.ensure(height);
          const row = table.add('TR');
          cells.forEach((lines, index) => {
            const cell = row.add('TD');
            lines.forEach((line, lineIndex) => {
              const y = flow.y + CELL_PADDING + STYLES.body.size + lineIndex * lineHeight(STYLES.body);
              const [left, right] = [xs[index]! + CELL_PADDING, xs[index]! + widths[index]! - CELL_PADDING];
              if (columns[index]!.kind === 'figure') flow.page.textRight(right, y, line.text, STYLES.body, cell);
              else flow.page.textFromStart(left, right, y, line.text, STYLES.body, cell, line.breakAfter);
            });
          });
          flow.y += height;
          flow.page.line(flow.left, flow.y, flow.right, flow.y, 0.5, RULE);
        });
      },
    );
    flow.gap(GAP_AFTER_TABLE);
    this.totals(totals);
  }

  private totalsRowHeight(row: TotalsRow): number {
    return row.weight === 'emphasis' ? 24 : 17;
  }

  private totalsHeight(rows: TotalsRow[]): number {
    return rows.reduce((sum, row) => sum + this.totalsRowHeight(row), 0);
  }

  /**
   * Figures right-aligned in a block that is never split across pages. The figures end where the items table's
   * figures end and are never cut; a label gives way to a long figure. Read as a table of rows headed by their
   * labels.
   */
  totals(rows: TotalsRow[]): void {
    const { flow } = this;
    const table = this.structure.add('Table');
    const x = flow.right - RIGHT_BLOCK;
    const right = flow.right - CELL_PADDING;
    flow.ensure(this.totalsHeight(rows));
    for (const row of rows) {
      const style = row.weight === 'emphasis' ? STYLES.emphasis : row.weight === 'strong' ? STYLES.strong : STYLES.body;
      const height = this.totalsRowHeight(row);
      if (row.weight === 'emphasis') flow.page.rect(x, flow.y, RIGHT_BLOCK, height, FILL);
      if (row.weight === 'strong') flow.page.line(x, flow.y, flow.right, flow.y, 0.75, INK);
      const baseline = flow.y + height / 2 + style.size * 0.36;
      const valueWidth = this.fonts[style.weight].widthOf(row.value, style.size);
      const label = this.fit(row.label, style, RIGHT_BLOCK - CELL_PADDING * 2 - valueWidth - 12);
      const cells = table.add('TR');
      flow.page.text(x + CELL_PADDING, baseline, label, style, cells.add('TH', 'Row'));
      flow.page.textRight(right, baseline, row.value, style, cells.add('TD'));
      flow.y += height;
    }
    flow.gap(SECTION_GAP + 4);
  }

  /** The amount received in large type with a PAID stamp under it (receipt). */
  amountReceived(label: string, amount: string): void {
    const { flow } = this;
    flow.ensure(110);
    this.label(label);
    flow.page.text(flow.left, flow.y + STYLES.amount.size, amount, STYLES.amount, this.structure.add('P'));
    flow.y += lineHeight(STYLES.amount);
    flow.gap(8);
    const stampWidth = this.fonts.bold.widthOf('PAID', STYLES.stamp.size) + 28;
    flow.page.frame(flow.left, flow.y, stampWidth, 30, 2, STYLES.stamp.color);
    flow.page.text(flow.left + 14, flow.y + 21, 'PAID', STYLES.stamp, this.structure.add('P'));
    flow.y += 30;
    flow.gap(SECTION_GAP + 6);
  }

  /** A place to sign: name, signature and date lines (quote). */
  signatureBlock(label: string): void {
    const { flow } = this;
    flow.ensure(110);
    this.label(label);
    const width = (flow.width - 40) / 3;
    flow.gap(34);
    ['Name', 'Signature', 'Date'].forEach((caption, index) => {
      const x = flow.left + index * (width + 20);
      flow.page.line(x, flow.y, x + width, flow.y, 0.75, INK);
      flow.page.text(x, flow.y + 12, caption, STYLES.muted, this.structure.add('P'));
    });
    flow.gap(20 + SECTION_GAP);
  }

  /**
   * Adds `Page N of M`, the footer line and, for a preview, the marking on every page; returns the pages. All of it
   * is pagination artifacts, except the preview marking at the foot of the first page: that is the document's
   * first paragraph, so that a screen reader says once, before anything else, that this is a preview.
   */
  finish(footer: string, preview: boolean): Canvas[] {
    const { flow } = this;
    const pages = flow.pages;
    const notice = new StructureElement('P');
    if (preview) this.structure.children.unshift(notice);
    pages.forEach((page, index) => {
      const baseline = (this.footTops.get(page) ?? flow.size.height) - 34;
      page.line(flow.left, baseline - 12, flow.right, baseline - 12, 0.5, RULE);
      const pageLabel = `Page ${index + 1} of ${pages.length}`;
      page.textRight(flow.right, baseline, pageLabel, STYLES.footer, PAGINATION);
      const room = flow.width - this.fonts.regular.widthOf(pageLabel, STYLES.footer.size) - 24;
      if (preview) {
        page.text(flow.left, baseline, PREVIEW_MARK, STYLES.warning, index === 0 ? notice : PAGINATION);
        const size =
          (Math.sqrt(flow.size.width * flow.size.width + flow.size.height * flow.size.height) * 0.72) /
          this.fonts.bold.widthOf(PREVIEW_MARK, 1);
        page.watermark(PREVIEW_MARK, size, WARNING);
      } else {
        page.text(flow.left, baseline, this.fit(footer, STYLES.footer, room), STYLES.footer, PAGINATION);
      }
    });
    return pages;
  }
}
