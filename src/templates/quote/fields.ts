import { LIMITS } from '../../contract/limits.ts';
import { currencyField, notesField, optional, optionalDate, PARTY_FIELDS, required, requiredDate } from '../common-fields.ts';
import { boolean, lineItems, money, multiline, oneOf, text } from '../field-types.ts';

const QUOTE_TITLES = ['Quote', 'Estimate'] as const;

export const QUOTE_FIELDS = {
  document_title: required(oneOf(QUOTE_TITLES), 'Chooses the heading.'),
  ...PARTY_FIELDS,
  client_name: { ...PARTY_FIELDS.client_name, description: 'Printed under Prepared for.' },
  quote_number: required(text(), 'Supplied by the caller, never allocated or checked.'),
  date: requiredDate('Issue date.'),
  valid_until: optionalDate('Last day the quote is valid.'),
  related_document: optional(text(), 'Printed as Ref.'),
  scope: required(multiline(), 'Scope of work.'),
  currency: currencyField,
  items: optional(lineItems, `${LIMITS.minLineItems} to ${LIMITS.maxLineItems} line items; send either items or amount.`),
  amount: optional(money, 'Fixed total instead of items; printed normalised.'),
  terms: optional(multiline(), 'Terms of the quote.'),
  notes: notesField,
  show_acceptance: optional(boolean, 'Adds an Accepted by block to sign; omitted means false.'),
};
