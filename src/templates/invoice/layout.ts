import type { Decimal } from '../../money/decimal.ts';
import type { TotalsRow } from '../../render/document.ts';
import { itemColumns, itemRows, money, moneyWithCurrency, percentLabel } from '../layout-kit.ts';
import type { LayoutInput } from '../template.ts';
import type { INVOICE_FIELDS } from './fields.ts';
import { PAYMENT_CODES, type PaymentCodeName, paymentPayload, printedIban, qrModules } from './payment-codes.ts';

type InvoiceValues = LayoutInput<typeof INVOICE_FIELDS>['values'];

/**
 * The code, and what is printed beside it: the scheme, the payee, the account, the amount it carries (the balance
 * due, as the Totals print it) and its reference; the same facts as the Figure's alternative text.
 */
function paymentCodeBlock(code: PaymentCodeName, values: InvoiceValues, printedAmount: string, amount: Decimal) {
  const scheme = PAYMENT_CODES[code];
  const input = {
    name: values.seller_name,
    amount,
    invoiceNumber: values.invoice_number,
    iban: values.payee_iban,
    bic: values.payee_bic,
    creditorReference: values.creditor_reference,
    upiId: values.upi_id,
    pixKey: values.pix_key,
    pixCity: values.pix_city,
    link: values.payment_link,
  };
  const account = {
    sepa: [`IBAN ${printedIban(values.payee_iban ?? '')}`, ...(values.payee_bic ? [`BIC ${values.payee_bic}`] : [])],
    upi: [`UPI ${values.upi_id}`],
    pix: [`PIX key ${values.pix_key}`, values.pix_city ?? ''],
    link: [values.payment_link ?? ''],
  }[code];
  const reference = code === 'sepa' ? [`Reference ${values.creditor_reference ?? values.invoice_number}`] : [];
  return {
    modules: qrModules(paymentPayload(code, input)),
    lines: [scheme.label, `To ${values.seller_name}`, ...account, `Amount ${printedAmount}`, ...reference],
    alt: `${scheme.label} QR code: pay ${printedAmount} to ${values.seller_name}.`,
  };
}

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
  const balanceDue = totals.balance_due!;
  if (values.payment_code && balanceDue.gt(0)) {
    document.paymentCode(
      'Pay by scanning',
      paymentCodeBlock(values.payment_code, values, moneyWithCurrency(balanceDue, currency, digits), balanceDue),
    );
  }
  if (values.notes) document.section('Notes', values.notes);
}
