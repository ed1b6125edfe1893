import { LIMITS } from '../../contract/limits.ts';
import { currencyField, notesField, optional, optionalDate, PARTY_FIELDS, required, requiredDate } from '../common-fields.ts';
import { discount, formattedText, lineItems, money, multiline, oneOf, percent, text, url } from '../field-types.ts';
import { bicOf, countryOf, creditorReferenceOf, ibanOf, PAYMENT_CODE_NAMES, pixKeyOf, qrReferenceOf, upiIdOf } from './payment-codes.ts';

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
  payment_code: optional(
    oneOf(PAYMENT_CODE_NAMES),
    'A payment QR code for the balance due, printed under Pay by scanning with the amount it carries: sepa (EPC QR code, EUR; needs payee_iban), upi (INR; needs upi_id), pix (BRL; needs pix_key and pix_city), link (a QR code of payment_link); or swiss_qr_bill, the payment part and receipt of a Swiss QR-bill at the foot of the last page (CHF or EUR; needs a CH or LI payee_iban, payee_postal_code, payee_town and payee_country). The payee is seller_name. No code is printed when the balance due is 0.',
  ),
  payee_iban: optional(
    formattedText(42, ibanOf, 'invalid_iban'),
    "The seller's IBAN, for payment_code sepa and swiss_qr_bill; spaces allowed.",
  ),
  payee_bic: optional(formattedText(11, bicOf, 'invalid_bic'), "The seller's bank's BIC, for payment_code sepa (optional there)."),
  creditor_reference: optional(
    formattedText(35, creditorReferenceOf, 'invalid_creditor_reference'),
    'An ISO 11649 creditor reference (RF…) the sepa code carries instead of the invoice number.',
  ),
  upi_id: optional(formattedText(256, upiIdOf, 'invalid_upi_id'), "The seller's UPI id (name@bank), for payment_code upi."),
  pix_key: optional(formattedText(77, pixKeyOf, 'invalid_pix_key'), "The seller's PIX key, for payment_code pix."),
  pix_city: optional(text(15), "The seller's city as the PIX code carries it, for payment_code pix."),
  payee_street: optional(text(70), "The seller's street, for payment_code swiss_qr_bill (optional there)."),
  payee_building_number: optional(text(16), "The seller's building number, for payment_code swiss_qr_bill (optional there)."),
  payee_postal_code: optional(text(16), "The seller's postal code, for payment_code swiss_qr_bill."),
  payee_town: optional(text(35), "The seller's town, for payment_code swiss_qr_bill."),
  payee_country: optional(
    formattedText(2, countryOf, 'invalid_country'),
    "The seller's country as an ISO 3166-1 code of two letters (CH), for payment_code swiss_qr_bill.",
  ),
  qr_reference: optional(
    formattedText(32, qrReferenceOf, 'invalid_qr_reference'),
    'A QR reference (27 digits, the last a modulo 10 check digit; spaces allowed), which a swiss_qr_bill with a QR-IBAN needs and only it takes.',
  ),
  notes: notesField,
};
