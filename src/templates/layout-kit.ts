import { formatGrouped, formatQuantity, formatUnitPrice, type Decimal } from '../money/decimal.ts';
import type { Column } from '../render/document.ts';
import type { LineItem } from './field-types.ts';
import { lineAmount } from './totals.ts';

/** Negative figures print with a hyphen-minus: Noto Sans has no U+2212, and copied text stays a number. */
export function money(value: Decimal, digits: number): string {
  return formatGrouped(value, digits);
}

/** A figure that says its currency, for the lines a reader looks for: `EUR 1,234.00`. */
export function moneyWithCurrency(value: Decimal, currency: string, digits: number): string {
  return `${currency} ${money(value, digits)}`;
}

export function itemColumns(currency: string): Column[] {
  return [
    { title: 'Description', width: 0, align: 'left' },
    { title: 'Qty', width: 52, align: 'right' },
    { title: `Unit price (${currency})`, width: 96, align: 'right' },
    { title: `Amount (${currency})`, width: 96, align: 'right' },
  ];
}

export function itemRows(items: readonly LineItem[], digits: number): string[][] {
  return items.map((item) => [
    item.description,
    formatQuantity(item.quantity.value),
    formatUnitPrice(item.unitPrice.value, digits),
    money(lineAmount(item, digits), digits),
  ]);
}

/** A rate as printed: `21%`, `7.125%`. */
export function percentLabel(rate: Decimal): string {
  return `${rate.toFixed()}%`;
}
