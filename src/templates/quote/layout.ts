import { itemColumns, itemRows, money, moneyWithCurrency } from '../layout-kit.ts';
import type { LayoutInput } from '../template.ts';
import type { QUOTE_FIELDS } from './fields.ts';

export function layoutQuote({ document, values, totals, currency, digits }: LayoutInput<typeof QUOTE_FIELDS>): void {
  document.head(values.document_title.toUpperCase(), values, [
    [`${values.document_title} no.`, values.quote_number],
    ['Date', values.date],
    ['Valid until', values.valid_until],
    ['Ref.', values.related_document],
  ]);
  document.party('Prepared for', values.client_name, values.client_details);
  document.section('Scope of work', values.scope);
  if (values.items) {
    document.itemsWithTotals(itemColumns(currency), itemRows(values.items, digits), [
      { label: 'Subtotal', value: money(totals.subtotal!, digits) },
      { label: 'Total', value: moneyWithCurrency(totals.total!, currency, digits), weight: 'emphasis' },
    ]);
  } else {
    document.totals([{ label: 'Fixed price', value: moneyWithCurrency(totals.total!, currency, digits), weight: 'emphasis' }]);
  }
  if (values.terms) document.section('Terms', values.terms);
  if (values.notes) document.section('Notes', values.notes);
  if (values.show_acceptance) document.signatureBlock('Accepted by');
}
