import type { TotalsRow } from '../../render/document.ts';
import { itemColumns, itemRows, money, moneyWithCurrency, percentLabel } from '../layout-kit.ts';
import type { LayoutInput } from '../template.ts';
import type { INVOICE_FIELDS } from './fields.ts';

export function layoutInvoice({ document, values, totals, currency, digits }: LayoutInput<typeof INVOICE_FIELDS>): void {
  document.head('INVOICE', values, [
    ['Invoice no.', values.invoice_number],
    ['Date', values.date],
    ['Due date', values.due_date],
    ['PO no.', values.po_number],
    ['Ref.', values.related_document],
  ]);
  document.party('Bill to', values.client_name, values.client_details);

  const rows: TotalsRow[] = [{ label: 'Subtotal', value: money(totals.subtotal!, digits) }];
  if (totals.discount && values.discount) {
    const label = values.discount.kind === 'percent' ? `Discount (${percentLabel(values.discount.rate)})` : 'Discount';
    rows.push({ label, value: money(totals.discount.negated(), digits) });
  }
  if (totals.tax && values.tax_rate)
    rows.push({ label: `${values.tax_label ?? 'Tax'} ${percentLabel(values.tax_rate)}`, value: money(totals.tax, digits) });
  rows.push({ label: 'Total', value: moneyWithCurrency(totals.total!, currency, digits), weight: 'strong' });
  if (totals.amount_paid) rows.push({ label: 'Amount paid', value: money(totals.amount_paid, digits) });
  rows.push({ label: 'Balance due', value: moneyWithCurrency(totals.balance_due!, currency, digits), weight: 'emphasis' });
  document.itemsWithTotals(itemColumns(currency), itemRows(values.items, digits), rows);

  if (values.payment_terms) document.section('Payment terms', values.payment_terms);
  if (values.payment_instructions) document.section('Payment instructions', values.payment_instructions);
  if (values.payment_link) document.link('Pay online', values.payment_link);
  if (values.notes) document.section('Notes', values.notes);
}
