import { LIMITS } from '../../contract/limits.ts';
import { sellerName } from '../common-fields.ts';
import { defineTemplate } from '../template.ts';
import { checkQuote } from './checks.ts';
import { QUOTE_FIELDS } from './fields.ts';
import { layoutQuote } from './layout.ts';

export const quote = defineTemplate({
  slug: 'quote',
  name: 'Quote / Estimate',
  description: `Scope of work with either ${LIMITS.minLineItems} to ${LIMITS.maxLineItems} line items and a computed total, or one fixed amount; optional terms and an acceptance block to sign.`,
  category: 'sales',
  version: '1.4.0',
  numberField: 'quote_number',
  fields: QUOTE_FIELDS,
  rules: [
    { code: 'items_or_amount', description: 'Exactly one of items and amount.' },
    { code: 'no_items', description: 'An items list has at least one item.' },
    { code: 'too_many_items', description: `At most ${LIMITS.maxLineItems} line items.` },
    {
      code: 'line_amount_rounding',
      description:
        "Each line amount is quantity × unit price, rounded half away from zero to the currency's minor unit; the total is the sum of the rounded amounts and may be below zero with credit lines.",
    },
  ],
  notes: {
    is: ['A quote or estimate headed Quote or Estimate, with a scope of work and a total.'],
    is_not: ['No tax arithmetic.', 'The acceptance block is only a place to sign; it is not an electronic signature.'],
  },
  example: {
    template: 'quote',
    mode: 'preview',
    fields: {
      document_title: 'Quote',
      seller_name: 'Example Studio Ltd',
      client_name: 'Client Company Inc.',
      quote_number: 'Q-2026-014',
      date: '2026-10-01',
      valid_until: '2026-10-31',
      scope: 'Redesign of the marketing website: five page templates and a style guide.',
      currency: 'USD',
      items: [
        { description: 'Discovery workshop', quantity: '1', unit_price: '1200.00' },
        { description: 'Page templates', quantity: '5', unit_price: '800.00' },
      ],
      terms: '50% on acceptance, 50% on delivery.',
      show_acceptance: true,
    },
  },
  check: checkQuote,
  titleOf: (values) => `${values.document_title} ${values.quote_number}`,
  issuerOf: sellerName,
  layout: layoutQuote,
});
