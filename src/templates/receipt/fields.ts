import { currencyField, notesField, optional, PARTY_FIELDS, required, requiredDate } from '../common-fields.ts';
import { money, multiline, text } from '../field-types.ts';

export const RECEIPT_FIELDS = {
  ...PARTY_FIELDS,
  client_name: { ...PARTY_FIELDS.client_name, description: 'Printed under Received from.' },
  receipt_number: required(text(), 'Supplied by the caller, never allocated or checked.'),
  payment_date: requiredDate('Date the payment was received.'),
  related_document: optional(text(), 'Invoice this settles, printed as Invoice no.'),
  invoice_reference: {
    ...optional(text(), 'Deprecated alias of related_document.'),
    deprecatedFor: 'related_document',
  },
  description: required(multiline(), 'What the payment was for.'),
  currency: currencyField,
  amount: required(money, 'Greater than 0; printed normalised under Amount received.'),
  payment_method: required(text(), 'How the client paid, such as Bank transfer.'),
  payment_reference: optional(text(), 'Reference of the payment, such as a transaction id.'),
  notes: notesField,
};
