import type { TotalsRow } from '../../render/layout/document.ts';
import type { QrBill } from '../../render/layout/qr-bill.ts';
import { itemColumns, itemRows, money, moneyWithCurrency, percentLabel } from '../layout-kit.ts';
import type { LayoutInput } from '../template.ts';
import type { INVOICE_FIELDS } from './fields.ts';
import {
  PAYMENT_CODES,
  type PaymentCodeInput,
  paymentCodeInputOf,
  paymentPayload,
  printedIban,
  printedQrReference,
  qrBillAmount,
  qrBillPayload,
  qrBillReference,
  qrModules,
} from './payment-codes.ts';

type InvoiceValues = LayoutInput<typeof INVOICE_FIELDS>['values'];

/**
 * The Swiss QR-bill's payment part and receipt: the account with the creditor's address as the code carries it, the
 * reference printed in its groups, the message, and the amount it carries (the balance due) in the bill's form.
 */
function qrBill(input: PaymentCodeInput): QrBill {
  const { type, reference } = qrBillReference(input);
  const country = input.country === 'CH' ? '' : `${input.country}-`;
  const street = [input.street, input.buildingNumber].filter(Boolean).join(' ');
  const amount = qrBillAmount(input.amount);
  return {
    modules: qrModules(qrBillPayload(input), { clearCentre: true }),
    alt: `Swiss QR-bill QR code: pay ${input.currency} ${amount} to ${input.name}.`,
    account: [printedIban(input.iban!), input.name, ...(street ? [street] : []), `${country}${input.postalCode} ${input.town}`],
    reference: type === 'NON' ? undefined : type === 'QRR' ? printedQrReference(reference) : printedIban(reference),
    additional: `Invoice ${input.invoiceNumber}`,
    currency: input.currency!,
    amount,
  };
}

/**
 * The code, and what is printed beside it: the scheme, the payee, the account, the amount it carries (the balance
 * due, as the Totals print it) and its reference; the same facts as the Figure's alternative text.
 */
function paymentCodeBlock(
  code: Exclude<InvoiceValues['payment_code'], 'swiss_qr_bill' | undefined>,
  values: InvoiceValues,
  printedAmount: string,
  input: PaymentCodeInput,
) {
  const scheme = PAYMENT_CODES[code];
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
  const code = balanceDue.gt(0) ? values.payment_code : undefined;
  const input = paymentCodeInputOf(values, balanceDue, currency);
  if (code && code !== 'swiss_qr_bill') {
    document.paymentCode('Pay by scanning', paymentCodeBlock(code, values, moneyWithCurrency(balanceDue, currency, digits), input));
  }
  if (values.notes) document.section('Notes', values.notes);
  if (code === 'swiss_qr_bill') document.qrBill(qrBill(input));
}
