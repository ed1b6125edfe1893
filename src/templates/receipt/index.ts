import { sellerName } from '../common-fields.ts';
import { defineTemplate } from '../template.ts';
import { checkReceipt } from './checks.ts';
import { RECEIPT_FIELDS } from './fields.ts';
import { layoutReceipt } from './layout.ts';

export const receipt = defineTemplate({
  slug: 'receipt',
  name: 'Payment Receipt',
  description: 'Seller-issued receipt after a client has paid, with a PAID stamp under the amount received.',
  category: 'billing',
  version: '1.4.0',
  numberField: 'receipt_number',
  fields: RECEIPT_FIELDS,
  rules: [
    { code: 'must_be_positive', description: 'amount is greater than 0.' },
    { code: 'conflicting_fields', description: 'Send related_document or its deprecated alias invoice_reference, not both.' },
  ],
  notes: {
    is: ['A receipt a seller issues after a client has paid.'],
    is_not: ['Not a point-of-sale receipt.', 'The service takes no payments and asserts no tax or legal validity.'],
  },
  example: {
    template: 'receipt',
    mode: 'preview',
    fields: {
      seller_name: 'Example Studio Ltd',
      client_name: 'Client Company Inc.',
      receipt_number: 'R-0042',
      payment_date: '2026-10-15',
      related_document: 'INV-001',
      description: 'Payment for invoice INV-001.',
      currency: 'EUR',
      amount: '1045.00',
      payment_method: 'Bank transfer',
      payment_reference: 'TX-88231',
    },
  },
  check: checkReceipt,
  titleOf: (values) => `Payment receipt ${values.receipt_number}`,
  issuerOf: sellerName,
  layout: layoutReceipt,
});
