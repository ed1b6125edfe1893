import { type Decimal, formatGrouped, formatQuantity, formatUnitPrice } from '../money/decimal.ts';
import type { Column } from '../render/layout/document.ts';
import type { LineItem } from './field-types.ts';
import { lineAmount } from './totals.ts';

const MINUS_SIGN = '\u2212';

/**
 * A negative figure prints with U+2212 MINUS SIGN (the fonts carry it, see fonts/README.md): as wide as a digit
 * and set at the height of figures, where a hyphen-minus is short and low. Only printed text: the Totals object
 * and headers keep ASCII `-`.
 */
function withMinusSign(figure: string): string {
  return figure.startsWith('-') ? `${MINUS_SIGN}${figure.slice(1)}` : figure;
}

export function money(value: Decimal, digits: number): string {
  return withMinusSign(formatGrouped(value, digits));
}

/** A figure that says its currency, for the lines a reader looks for: `EUR 1,234.00`. */
export function moneyWithCurrency(value: Decimal, currency: string, digits: number): string {
  return `${currency} ${money(value, digits)}`;
}

export function itemColumns(currency: string): Column[] {
  return [
    { title: 'Description', kind: 'text' },
    { title: 'Qty', kind: 'figure' },
    { title: `Unit price (${currency})`, kind: 'figure' },
    { title: `Amount (${currency})`, kind: 'figure' },
  ];
}

export function itemRows(items: readonly LineItem[], digits: number): string[][] {
  return items.map((item) => [
    item.description,
    withMinusSign(formatQuantity(item.quantity.value)),
    withMinusSign(formatUnitPrice(item.unitPrice.value, digits)),
    money(lineAmount(item, digits), digits),
  ]);
}

/** A rate as printed: `21%`, `7.125%`. */
export function percentLabel(rate: Decimal): string {
  return `${rate.toFixed()}%`;
}
