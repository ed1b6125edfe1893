import { moneyWithCurrency } from '../layout-kit.ts';
import type { FieldValues, LayoutInput } from '../template.ts';
import type { RECEIPT_FIELDS } from './fields.ts';

export function receiptTitle(values: Readonly<Record<string, unknown>>): string {
  return `Payment receipt ${values.receipt_number}`;
}

export function layoutReceipt({ document, values, totals, currency, digits }: LayoutInput): void {
  const v = values as FieldValues<typeof RECEIPT_FIELDS>;
  const invoiceNumber = v.related_document ?? v.invoice_reference;
  const facts: [string, string][] = [['Receipt no.', v.receipt_number], ['Payment date', v.payment_date]];
  if (invoiceNumber) facts.push(['Invoice no.', invoiceNumber]);
  document.head({
    heading: 'PAYMENT RECEIPT',
    sellerName: v.seller_name,
    sellerDetails: v.seller_details,
    taxId: v.tax_id,
    facts,
  });
  document.party('Received from', v.client_name, v.client_details);
  document.section('Description', v.description);
  document.amountReceived('Amount received', moneyWithCurrency(totals.amount_paid!, currency, digits));
  const payment: [string, string][] = [['Payment method', v.payment_method]];
  if (v.payment_reference) payment.push(['Payment reference', v.payment_reference]);
  document.facts(payment);
  if (v.notes) document.section('Notes', v.notes);
}
