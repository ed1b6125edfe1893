import { moneyWithCurrency } from '../layout-kit.ts';
import type { LayoutInput } from '../template.ts';
import type { RECEIPT_FIELDS } from './fields.ts';

export function layoutReceipt({ document, values, totals, currency, digits }: LayoutInput<typeof RECEIPT_FIELDS>): void {
  document.head('PAYMENT RECEIPT', values, [
    ['Receipt no.', values.receipt_number],
    ['Payment date', values.payment_date],
    ['Invoice no.', values.related_document ?? values.invoice_reference],
  ]);
  document.party('Received from', values.client_name, values.client_details);
  document.section('Description', values.description);
  document.amountReceived('Amount received', moneyWithCurrency(totals.amount_paid!, currency, digits));
  document.facts([
    ['Payment method', values.payment_method],
    ['Payment reference', values.payment_reference],
  ]);
  if (values.notes) document.section('Notes', values.notes);
}
