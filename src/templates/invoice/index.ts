import { LIMITS } from '../../contract/limits.ts';
import { sellerName } from '../common-fields.ts';
import { defineTemplate } from '../template.ts';
import { checkInvoice } from './checks.ts';
import { INVOICE_FIELDS } from './fields.ts';
import { layoutInvoice } from './layout.ts';

export const invoice = defineTemplate({
  slug: 'invoice',
  name: 'Invoice',
  description: `Seller-issued invoice with ${LIMITS.minLineItems} to ${LIMITS.maxLineItems} line items, an optional discount, one optional tax line, an optional amount paid and the balance due.`,
  category: 'billing',
  version: '2.6.0',
  numberField: 'invoice_number',
  fields: INVOICE_FIELDS,
  rules: [
    { code: 'no_items', description: 'At least one line item.' },
    { code: 'too_many_items', description: `At most ${LIMITS.maxLineItems} line items.` },
    { code: 'negative_total', description: 'The subtotal (sum of rounded lines) is at least 0.' },
    { code: 'total_too_large', description: `The subtotal is below 10^${LIMITS.subtotalDigits}.` },
    { code: 'discount_too_large', description: 'The discount is not above the subtotal.' },
    { code: 'amount_paid_too_large', description: 'amount_paid is not above the total.' },
    { code: 'requires_field', description: 'tax_label needs tax_rate.' },
    {
      code: 'line_amount_rounding',
      description:
        "Each line amount is quantity × unit price, rounded half away from zero to the currency's minor unit; the subtotal is the sum of the rounded amounts.",
    },
    {
      code: 'discount_rounding',
      description: "A percentage discount is the subtotal × rate / 100, rounded half away from zero to the currency's minor unit.",
    },
    {
      code: 'tax_rounding',
      description:
        "The tax line is (subtotal − discount) × tax_rate / 100, rounded half away from zero to the currency's minor unit; total = subtotal − discount + tax.",
    },
    { code: 'balance_due', description: 'balance_due = total − amount_paid (the total when nothing was paid).' },
    {
      code: 'requires_field',
      description:
        'payment_code sepa needs payee_iban; upi needs upi_id; pix needs pix_key and pix_city; link needs payment_link; swiss_qr_bill needs payee_iban, payee_postal_code, payee_town and payee_country.',
    },
    {
      code: 'payment_code_currency',
      description: 'payment_code sepa takes EUR, upi INR, pix BRL, swiss_qr_bill CHF or EUR; link any currency.',
    },
    { code: 'payment_code_amount', description: 'An EPC (sepa) code and a Swiss QR-bill carry at most 999,999,999.99.' },
    {
      code: 'payment_code_account',
      description:
        'A swiss_qr_bill takes a CH or LI payee_iban; a QR-IBAN (institution id 30000 to 31999) needs a qr_reference and takes no creditor_reference; another IBAN takes a creditor_reference or none, and no qr_reference.',
    },
    {
      code: 'payment_code_characters',
      description:
        "A swiss_qr_bill carries seller_name, the payee's address and invoice_number in its Latin character set only (Basic Latin, Latin-1 Supplement, Latin Extended-A, Ș ș Ț ț, €).",
    },
    {
      code: 'too_long_for_payment_code',
      description:
        'The payee of a payment code is seller_name: at most 70 characters for sepa and swiss_qr_bill, 25 for pix; without creditor_reference, a sepa code carries invoice_number as its remittance, at most 140 characters; a swiss_qr_bill carries `Invoice ` and invoice_number as its message, at most 140 characters.',
    },
    {
      code: 'payment_code_amount_printed',
      description:
        'A payment code carries the balance due, printed beside it as the Totals print it (a Swiss QR-bill in its own form: two decimals, thousands separated by spaces); with a balance due of 0 no code is printed, and no Swiss QR-bill either (a paid invoice asks for no payment).',
    },
  ],
  notes: {
    is: [
      'A seller-issued invoice headed INVOICE.',
      'Totals are computed by the service from the line items and returned with the document.',
    ],
    is_not: [
      'Not a tax invoice: the heading is never TAX INVOICE and the service asserts no tax or legal validity.',
      'Not e-invoice data and not PDF/A.',
      'The service does not allocate or check invoice numbers and takes no payments.',
    ],
  },
  example: {
    template: 'invoice',
    mode: 'preview',
    fields: {
      seller_name: 'Example Studio Ltd',
      seller_details: '1 High Street\nLondon N1 1AA\nUnited Kingdom',
      tax_id: 'GB123456789',
      client_name: 'Client Company Inc.',
      client_details: '500 Market Street\nSan Francisco, CA 94105',
      invoice_number: 'INV-001',
      date: '2026-10-01',
      due_date: '2026-10-31',
      currency: 'GBP',
      items: [
        { description: 'Design work (hours)', quantity: '12', unit_price: '85.00' },
        { description: 'Hosting, October', quantity: '1', unit_price: '25.00' },
      ],
      tax_rate: '20%',
      tax_label: 'VAT',
      payment_terms: 'Net 30',
      payment_link: 'https://pay.example.com/INV-001',
    },
  },
  check: checkInvoice,
  titleOf: (values) => `Invoice ${values.invoice_number}`,
  issuerOf: sellerName,
  layout: layoutInvoice,
});
