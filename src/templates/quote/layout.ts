import { itemColumns, itemRows, money, moneyWithCurrency } from '../layout-kit.ts';
import type { FieldValues, LayoutInput } from '../template.ts';
import type { QUOTE_FIELDS } from './fields.ts';

export function quoteTitle(values: Readonly<Record<string, unknown>>): string {
  return `${values.document_title} ${values.quote_number}`;
}

export function layoutQuote({ document, values, totals, currency, digits }: LayoutInput): void {
  const v = values as FieldValues<typeof QUOTE_FIELDS>;
  document.head(v.document_title.toUpperCase(), v, [
    [`${v.document_title} no.`, v.quote_number],
    ['Date', v.date],
    ['Valid until', v.valid_until],
    ['Ref.', v.related_document],
  ]);
  document.party('Prepared for', v.client_name, v.client_details);
  document.section('Scope of work', v.scope);
  if (v.items) {
    document.itemsWithTotals(itemColumns(currency), itemRows(v.items, digits), [
      { label: 'Subtotal', value: money(totals.subtotal!, digits) },
      { label: 'Total', value: moneyWithCurrency(totals.total!, currency, digits), weight: 'emphasis' },
    ]);
  } else {
    document.totals([{ label: 'Fixed price', value: moneyWithCurrency(totals.total!, currency, digits), weight: 'emphasis' }]);
  }
  if (v.terms) document.section('Terms', v.terms);
  if (v.notes) document.section('Notes', v.notes);
  if (v.show_acceptance) document.signatureBlock('Accepted by');
}
