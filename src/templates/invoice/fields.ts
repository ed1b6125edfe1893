import { LIMITS } from '../../contract/limits.ts';
import { currencyField, notesField, optional, optionalDate, PARTY_FIELDS, required, requiredDate } from '../common-fields.ts';
import { discount, lineItems, money, multiline, oneOf, percent, text, url } from '../field-types.ts';

const TAX_LABELS = ['VAT', 'GST', 'Sales tax', 'Tax'] as const;

export const INVOICE_FIELDS = {
  seller_name: PARTY_FIELDS.seller_name,
  seller_details: PARTY_FIELDS.seller_details,
  tax_id: PARTY_FIELDS.tax_id,
  client_name: { ...PARTY_FIELDS.client_name, description: 'Printed under Bill to.' },
  client_details: PARTY_FIELDS.client_details,
  invoice_number: required(text(), 'Supplied by the caller, never allocated or checked.'),
  date: requiredDate('Issue date.'),
  due_date: optionalDate('Due date.'),
  po_number: optional(text(), "Buyer's purchase order number, printed as PO no."),
  related_document: optional(text(), 'Number of the document this follows, printed as Ref.'),
  currency: currencyField,
  items: required(lineItems, `${LIMITS.minLineItems} to ${LIMITS.maxLineItems} line items.`),
  discount: optional(discount, 'A money amount, or a percentage of the subtotal ending in %.'),
  tax_rate: optional(percent, 'Applied to the subtotal after discount, printed on its own line.'),
  tax_label: optional(oneOf(TAX_LABELS), 'Name of the tax line; requires tax_rate; without it the line is called Tax.'),
  amount_paid: optional(money, 'Amount already paid; not above the total.'),
  payment_terms: optional(text(), 'Payment terms, such as Net 30.'),
  payment_instructions: optional(multiline(), 'How to pay, such as bank details.'),
  payment_link: optional(url, "Caller's own payment link, printed in full under Pay online as a clickable link."),
  notes: notesField,
};
