import type { FontSet } from '../fonts.ts';
import { type WrappedLine, wrapText } from '../text/wrap.ts';
import type { Canvas, Rgb, TextStyle } from './canvas.ts';
import type { Artifact, StructureElement } from './structure.ts';

/** Points per millimetre: the QR-bill's layout is given in millimetres (SIX Style Guide for the QR-bill). */
const MM = 72 / 25.4;
/** The slip: 210 × 105 mm, the receipt's 62 mm on the left, the payment part's 148 on the right. */
export const QR_BILL_HEIGHT = 105 * MM;
export const QR_BILL_WIDTH = 210 * MM;
const RECEIPT_WIDTH = 62 * MM;
const MARGIN = 5 * MM;
/** The Swiss QR code's side, its quiet zone the 5 mm around it; the Swiss cross at its centre. */
const CODE_SIDE = 46 * MM;
const CROSS = { white: 7 * MM, black: 6 * MM, arm: 3.89 * MM, thickness: 1.17 * MM };
/** The boxes with corner marks where a payer writes their name and address, and the marks' length. */
const RECEIPT_BOX = { width: 52 * MM, height: 20 * MM };
const PAYMENT_BOX = { width: 65 * MM, height: 25 * MM };
const CORNER = 3 * MM;
/** Where the amount sections begin (from the slip's top), and the receipt's acceptance point. */
const AMOUNT_TOP = 68 * MM;
const ACCEPTANCE_TOP = 82 * MM;
/** Black on white, as the style guide asks (no colour, no shading). */
const BLACK: Rgb = [0, 0, 0];
const WHITE: Rgb = [1, 1, 1];
const LAYOUT: Artifact = { artifact: 'Layout' };

/** The style guide's sizes: titles 11 pt bold, the payment part's headings 8 pt and values 10, the receipt's 6 and 8. */
const STYLES = {
  title: { weight: 'bold', size: 11, color: BLACK },
  heading: { weight: 'bold', size: 8, color: BLACK },
  value: { weight: 'regular', size: 10, color: BLACK },
  receiptHeading: { weight: 'bold', size: 6, color: BLACK },
  receiptValue: { weight: 'regular', size: 8, color: BLACK },
  separation: { weight: 'regular', size: 7, color: BLACK },
} as const satisfies Record<string, TextStyle>;

/** What the payment part and the receipt print, each as the QR code carries it. */
export interface QrBill {
  readonly modules: readonly (readonly boolean[])[];
  /** The Figure's alternative text: the scheme, the payee and the amount. */
  readonly alt: string;
  /** Account / Payable to: the IBAN in groups of four, the creditor's name and address lines. */
  readonly account: readonly string[];
  /** The reference as printed; none for a bill without one. */
  readonly reference: string | undefined;
  /** The unstructured message. */
  readonly additional: string;
  readonly currency: string;
  /** Two decimals, thousands separated by spaces. */
  readonly amount: string;
}

/** The sizes of a column's headings and values, tried in turn until its sections fit (SectionStyle). */
interface SectionStyle {
  readonly heading: TextStyle;
  readonly value: TextStyle;
  /** Each value cut to one line with an ellipsis: the last resort, when even the smallest sizes leave no room. */
  readonly oneLine?: boolean;
}

const sized = (style: TextStyle, size: number): TextStyle => ({ ...style, size });

/**
 * The payment part's sizes, the style guide's first (headings 8 pt, values 10), then smaller down to its least
 * (6 and 8); the receipt's the same from 6 and 8. Long names and addresses at their limits take the smaller ones.
 */
const PAYMENT_STYLES: readonly SectionStyle[] = [
  { heading: STYLES.heading, value: STYLES.value },
  { heading: sized(STYLES.heading, 7), value: sized(STYLES.value, 9) },
  { heading: sized(STYLES.heading, 6), value: sized(STYLES.value, 8) },
  { heading: sized(STYLES.heading, 6), value: sized(STYLES.value, 8), oneLine: true },
];
const RECEIPT_STYLES: readonly SectionStyle[] = [
  { heading: STYLES.receiptHeading, value: STYLES.receiptValue },
  { heading: STYLES.receiptHeading, value: sized(STYLES.receiptValue, 7) },
  { heading: STYLES.receiptHeading, value: sized(STYLES.receiptValue, 7), oneLine: true },
];

/** Room kept below a column's sections for the corner-marked box (its marks at least). */
const LEAST_BOX = 2 * CORNER;

/** A text cut to `width` with an ellipsis. */
function cut(text: string, fonts: FontSet, style: TextStyle, width: number): string {
  const face = fonts[style.weight];
  if (face.widthOf(text, style.size) <= width) return text;
  const chars = [...text];
  while (chars.length > 1 && face.widthOf(`${chars.join('')}…`, style.size) > width) chars.pop();
  return `${chars.join('')}…`;
}

/** Each section's lines in a style, and where the column ends from `y`. */
function setSections(
  fonts: FontSet,
  entries: readonly (readonly [string, readonly string[]])[],
  y: number,
  width: number,
  style: SectionStyle,
): { sections: { title: string; lines: WrappedLine[] }[]; end: number } {
  const { heading, value } = style;
  let end = y;
  const sections = entries.map(([title, values]) => {
    const lines = values.flatMap((line) =>
      style.oneLine ? [{ text: cut(line, fonts, value, width) }] : wrapText(line, fonts[value.weight], value.size, width),
    );
    end += heading.size * 1.45 + lines.length * value.size * 1.15 + value.size * 1.1;
    return { title, lines };
  });
  return { sections, end };
}

/**
 * A column of headed sections (heading, then its lines) from `at.y`, in the first style whose sections leave room
 * for the box above `at.bottom`; returns where it ends.
 */
function sections(
  page: Canvas,
  fonts: FontSet,
  parent: StructureElement,
  at: { x: number; y: number; width: number; bottom: number },
  entries: readonly (readonly [string, readonly string[]])[],
  styles: readonly SectionStyle[],
): { end: number; style: SectionStyle } {
  // Each style set once, the first that fits taken; the last is taken whether it fits or not.
  let chosen = styles[0]!;
  let set = setSections(fonts, entries, at.y, at.width, chosen);
  for (let index = 1; index < styles.length && set.end + LEAST_BOX > at.bottom; index++) {
    chosen = styles[index]!;
    set = setSections(fonts, entries, at.y, at.width, chosen);
  }
  const { heading, value } = chosen;
  let { y } = at;
  for (const { title, lines } of set.sections) {
    const paragraph = parent.add('P');
    y += heading.size;
    page.text(at.x, y, title, heading, paragraph);
    y += heading.size * 0.45;
    for (const line of lines) {
      y += value.size * 1.15;
      page.text(at.x, y, line.text, value, paragraph, line.breakAfter);
    }
    y += value.size * 1.1;
  }
  return { end: y, style: chosen };
}

/** A box drawn by its corners only, where the payer writes (the style guide's corner marks). */
function cornerBox(page: Canvas, x: number, y: number, size: { width: number; height: number }): void {
  const right = x + size.width;
  const bottom = y + size.height;
  for (const [cornerX, cornerY, towardX, towardY] of [
    [x, y, 1, 1],
    [right, y, -1, 1],
    [x, bottom, 1, -1],
    [right, bottom, -1, -1],
  ] as const) {
    page.line(cornerX, cornerY, cornerX + towardX * CORNER, cornerY, 0.75, BLACK);
    page.line(cornerX, cornerY, cornerX, cornerY + towardY * CORNER, 0.75, BLACK);
  }
}

/** A box as large as the style guide's, or as `room` leaves when long lines above it took part of its place. */
function boxWithin(size: { width: number; height: number }, room: number): { width: number; height: number } {
  return { width: size.width, height: Math.max(Math.min(size.height, room), 2 * CORNER) };
}

/** A dashed line, as the perforation is drawn on a bill sent as a file. */
function dashed(page: Canvas, x1: number, y1: number, x2: number, y2: number): void {
  const length = Math.hypot(x2 - x1, y2 - y1);
  const dash = 3;
  for (let from = 0; from < length; from += dash * 2) {
    const to = Math.min(from + dash, length);
    page.line(
      x1 + ((x2 - x1) * from) / length,
      y1 + ((y2 - y1) * from) / length,
      x1 + ((x2 - x1) * to) / length,
      y1 + ((y2 - y1) * to) / length,
      0.5,
      BLACK,
    );
  }
}

/** The amount section: Currency and Amount headed side by side, the values below. */
function amountSection(
  page: Canvas,
  parent: StructureElement,
  x: number,
  y: number,
  amountX: number,
  bill: QrBill,
  heading: TextStyle,
  value: TextStyle,
) {
  const paragraph = parent.add('P');
  page.text(x, y + heading.size, 'Currency', heading, paragraph);
  page.text(amountX, y + heading.size, 'Amount', heading, paragraph);
  const valueY = y + heading.size + heading.size * 0.45 + value.size * 1.15;
  page.text(x, valueY, bill.currency, value, paragraph);
  page.text(amountX, valueY, bill.amount, value, paragraph);
}

/**
 * A Swiss QR-bill's receipt and payment part, 210 × 105 mm from (`left`, `top`): the perforation above and between
 * them drawn dashed with "Separate before paying in" over it (the style guide's choice for a bill sent as a PDF),
 * the Swiss QR code 46 mm square with the Swiss cross, the sections with the style guide's headings, and the boxes
 * where the payer writes their name and address. Tagged in reading order: the receipt, then the payment part with
 * the code as a Figure.
 */
export function drawQrBill(
  page: Canvas,
  fonts: FontSet,
  structure: StructureElement,
  bill: QrBill,
  left: number,
  top: number,
  pageWidth: number,
): void {
  const separation = 'Separate before paying in';
  const separationWidth = fonts.regular.widthOf(separation, STYLES.separation.size);
  page.text(left + (QR_BILL_WIDTH - separationWidth) / 2, top - 3, separation, STYLES.separation, LAYOUT);
  dashed(page, 0, top, pageWidth, top);
  dashed(page, left + RECEIPT_WIDTH, top, left + RECEIPT_WIDTH, top + QR_BILL_HEIGHT);

  const reference: [string, string[]][] = bill.reference ? [['Reference', [bill.reference]]] : [];
  const receipt = structure.add('P');
  const receiptX = left + MARGIN;
  page.text(receiptX, top + MARGIN + STYLES.title.size, 'Receipt', STYLES.title, receipt);
  const receiptWidth = RECEIPT_WIDTH - 2 * MARGIN;
  const receiptBottom = top + AMOUNT_TOP - MM;
  const receiptColumn = sections(
    page,
    fonts,
    structure,
    { x: receiptX, y: top + 12 * MM, width: receiptWidth, bottom: receiptBottom },
    [['Account / Payable to', bill.account], ...reference, ['Payable by (name/address)', []]],
    RECEIPT_STYLES,
  );
  const receiptBoxTop = receiptColumn.end - receiptColumn.style.value.size * 0.6;
  cornerBox(page, receiptX, receiptBoxTop, boxWithin(RECEIPT_BOX, receiptBottom - receiptBoxTop));
  amountSection(page, structure, receiptX, top + AMOUNT_TOP, receiptX + 12 * MM, bill, STYLES.receiptHeading, STYLES.receiptValue);
  const acceptance = 'Acceptance point';
  page.textRight(
    left + RECEIPT_WIDTH - MARGIN,
    top + ACCEPTANCE_TOP + STYLES.receiptHeading.size,
    acceptance,
    STYLES.receiptHeading,
    structure.add('P'),
  );

  const partX = left + RECEIPT_WIDTH + MARGIN;
  page.text(partX, top + MARGIN + STYLES.title.size, 'Payment part', STYLES.title, structure.add('P'));
  const figure = structure.add('Figure');
  figure.alt = bill.alt;
  const codeTop = top + 17 * MM;
  page.modules(partX, codeTop, CODE_SIDE / bill.modules.length, bill.modules, figure);
  const centre = { x: partX + CODE_SIDE / 2, y: codeTop + CODE_SIDE / 2 };
  const square = (side: number, color: Rgb) => page.rect(centre.x - side / 2, centre.y - side / 2, side, side, color);
  square(CROSS.white, WHITE);
  square(CROSS.black, BLACK);
  page.rect(centre.x - CROSS.arm / 2, centre.y - CROSS.thickness / 2, CROSS.arm, CROSS.thickness, WHITE);
  page.rect(centre.x - CROSS.thickness / 2, centre.y - CROSS.arm / 2, CROSS.thickness, CROSS.arm, WHITE);
  amountSection(page, structure, partX, top + AMOUNT_TOP, partX + 14 * MM, bill, STYLES.heading, STYLES.value);

  const informationX = partX + CODE_SIDE + MARGIN;
  const paymentBottom = top + QR_BILL_HEIGHT - MARGIN;
  const information = sections(
    page,
    fonts,
    structure,
    { x: informationX, y: top + MARGIN, width: left + QR_BILL_WIDTH - MARGIN - informationX, bottom: paymentBottom },
    [
      ['Account / Payable to', bill.account],
      ...reference,
      ['Additional information', [bill.additional]],
      ['Payable by (name/address)', []],
    ],
    PAYMENT_STYLES,
  );
  const paymentBoxTop = information.end - information.style.value.size * 0.6;
  cornerBox(page, informationX, paymentBoxTop, boxWithin(PAYMENT_BOX, paymentBottom - paymentBoxTop));
}
