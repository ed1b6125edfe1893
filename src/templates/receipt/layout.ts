import { moneyWithCurrency } from '../layout-kit.ts';
import type { FieldValues, LayoutInput } from '../template.ts';
import type { RECEIPT_FIELDS } from './fields.ts';

export function receiptTitle(values: Readonly<Record<string, unknown>>): string {
  return `Payment receipt ${values.receipt_number}`;
}

export function layoutReceipt({ document, values, totals, currency, digits }: LayoutInput): void {
  const v = values as FieldValues<typeof RECEIPT_FIELDS>;
  document.head('PAYMENT RECEIPT', v, [
    ['Receipt no.', v.receipt_number],
    ['Payment date', v.payment_date],
    ['Invoice no.', v.related_document ?? v.invoice_reference],
  ]);
  document.party('Received from', v.client_name, v.client_details);
  document.section('Description', v.description);
  document.amountReceived('Amount received', moneyWithCurrency(totals.amount_paid!, currency, digits));
  document.facts([
    ['Payment method', v.payment_method],
    ['Payment reference', v.payment_reference],
  ]);
  if (v.notes) document.section('Notes', v.notes);
}
