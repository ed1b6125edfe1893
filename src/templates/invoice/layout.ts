import type { TotalsRow } from '../../render/document.ts';
import { itemColumns, itemRows, money, moneyWithCurrency, percentLabel } from '../layout-kit.ts';
import type { FieldValues, LayoutInput } from '../template.ts';
import type { INVOICE_FIELDS } from './fields.ts';

export function invoiceTitle(values: Readonly<Record<string, unknown>>): string {
  return `Invoice ${values.invoice_number}`;
}

export function layoutInvoice({ document, values, totals, currency, digits }: LayoutInput): void {
  const v = values as FieldValues<typeof INVOICE_FIELDS>;
  document.head('INVOICE', v, [
    ['Invoice no.', v.invoice_number],
    ['Date', v.date],
    ['Due date', v.due_date],
    ['PO no.', v.po_number],
    ['Ref.', v.related_document],
  ]);
  document.party('Bill to', v.client_name, v.client_details);

  const rows: TotalsRow[] = [{ label: 'Subtotal', value: money(totals.subtotal!, digits) }];
  if (totals.discount && v.discount) {
    const label = v.discount.kind === 'percent' ? `Discount (${percentLabel(v.discount.rate)})` : 'Discount';
    rows.push({ label, value: money(totals.discount.negated(), digits) });
  }
  if (totals.tax && v.tax_rate)
    rows.push({ label: `${v.tax_label ?? 'Tax'} ${percentLabel(v.tax_rate)}`, value: money(totals.tax, digits) });
  rows.push({ label: 'Total', value: moneyWithCurrency(totals.total!, currency, digits), weight: 'strong' });
  if (totals.amount_paid) rows.push({ label: 'Amount paid', value: money(totals.amount_paid, digits) });
  rows.push({ label: 'Balance due', value: moneyWithCurrency(totals.balance_due!, currency, digits), weight: 'emphasis' });
  document.itemsWithTotals(itemColumns(currency), itemRows(v.items, digits), rows);

  if (v.payment_terms) document.section('Payment terms', v.payment_terms);
  if (v.payment_instructions) document.section('Payment instructions', v.payment_instructions);
  if (v.payment_link) document.link('Pay online', v.payment_link);
  if (v.notes) document.section('Notes', v.notes);
}
