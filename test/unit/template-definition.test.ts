import { describe, expect, expectTypeOf, it } from 'vitest';
import { validateFields } from '../../src/documents/fields.ts';
import { isJsonObject, parseJson } from '../../src/json/parse.ts';
import type { Decimal } from '../../src/money/decimal.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { currencyField, optional, PARTY_FIELDS, required, sellerName } from '../../src/templates/common-fields.ts';
import { type Discount, type LineItem, money, multiline, text } from '../../src/templates/field-types.ts';
import type { INVOICE_FIELDS } from '../../src/templates/invoice/fields.ts';
import { layoutInvoice } from '../../src/templates/invoice/layout.ts';
import { type CheckInput, defineTemplate, type FieldValues, renderInput, type TemplateDeclaration } from '../../src/templates/template.ts';
import { readPdf } from '../support/pdf.ts';

/** A fourth template, declared as a template folder would declare it: no casts. */
const NOTE_FIELDS = {
  seller_name: PARTY_FIELDS.seller_name,
  client_name: PARTY_FIELDS.client_name,
  note_number: required(text(), 'Supplied by the caller.'),
  currency: currencyField,
  amount: required(money, 'Value of the goods delivered.'),
  remarks: optional(multiline(), 'Printed under Remarks.'),
};

const NOTE = {
  slug: 'delivery_note',
  name: 'Delivery note',
  description: 'Goods delivered to a client.',
  category: 'logistics',
  version: '1.0.0',
  numberField: 'note_number',
  fields: NOTE_FIELDS,
  rules: [{ code: 'must_be_positive', description: 'amount is greater than 0.' }],
  notes: { is: ['A delivery note.'], is_not: ['Not an invoice.'] },
  example: {},
  check: ({ values, currency }) => ({
    problems: values.amount?.isZero() ? [{ code: 'must_be_positive', path: ['amount'] }] : [],
    totals: values.amount && currency ? { currency, total: values.amount } : undefined,
  }),
  titleOf: (values) => `Delivery note ${values.note_number}`,
  issuerOf: sellerName,
  layout: ({ document, values }) => {
    document.head('DELIVERY NOTE', values, [['Note no.', values.note_number]]);
    document.party('Delivered to', values.client_name);
    if (values.remarks) document.section('Remarks', values.remarks);
  },
} satisfies TemplateDeclaration<typeof NOTE_FIELDS>;

const note = defineTemplate(NOTE);
const printed = (line: string) => line;

describe('a template declared with defineTemplate', () => {
  it('is read and rendered through the general form, its footer naming its issuer', async () => {
    const fields = parseJson(
      JSON.stringify({
        seller_name: 'Example Studio Ltd',
        client_name: 'Client Inc.',
        note_number: 'DN-7',
        currency: 'EUR',
        amount: '12.50',
      }),
    );
    if (!isJsonObject(fields)) throw new Error('fields is an object');
    const read = validateFields(note, fields);
    if (!read.ok) throw new Error(JSON.stringify(read.problems));
    expect(read.totals.total?.toFixed(2)).toBe('12.50');

    const pdf = await readPdf(
      await renderPdf(renderInput({ template: note, ...read, paper: 'a4', mode: 'final', locale: 'en' }), loadFonts(readFontFiles())),
    );
    expect(pdf.title).toBe('Delivery note DN-7');
    expect(pdf.text).toContain('DELIVERY NOTE');
    expect(pdf.text).toContain('Delivery note DN-7 · Example Studio Ltd');
  });

  it('runs its cross-field check on what the field types read', () => {
    const read = validateFields(note, { seller_name: 'S', client_name: 'C', note_number: '1', currency: 'EUR', amount: '0' });
    expect(read).toEqual({ ok: false, problems: [{ code: 'must_be_positive', path: ['amount'] }] });
  });
});

describe("a template's values are typed by its field map", () => {
  it('gives a layout every required field as its type and every optional one as possibly absent', () => {
    type Values = FieldValues<typeof INVOICE_FIELDS>;
    expectTypeOf<Values['invoice_number']>().toEqualTypeOf<string>();
    expectTypeOf<Values['items']>().toEqualTypeOf<LineItem[]>();
    expectTypeOf<Values['due_date']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Values['discount']>().toEqualTypeOf<Discount | undefined>();
    expectTypeOf<Values['tax_label']>().toEqualTypeOf<'VAT' | 'GST' | 'Sales tax' | 'Tax' | undefined>();
  });

  it('gives a check every field as possibly absent, a required one too, since its field type may have refused it', () => {
    type Values = CheckInput<typeof NOTE_FIELDS>['values'];
    expectTypeOf<Values['amount']>().toEqualTypeOf<Decimal | undefined>();
    expectTypeOf<CheckInput<typeof NOTE_FIELDS>['sent']>().toEqualTypeOf<ReadonlySet<keyof typeof NOTE_FIELDS>>();
  });

  it('does not compile a layout that reads a field the template does not declare, or an optional one as if required', () => {
    defineTemplate({
      ...NOTE,
      layout: ({ values }) => {
        // @ts-expect-error: the note declares no invoice_number.
        printed(values.invoice_number);
        // @ts-expect-error: remarks is optional, so it may be absent.
        printed(values.remarks);
        printed(values.remarks ?? values.note_number);
      },
    });
  });

  it('does not compile a check that takes a required field as read, nor one that names a field not declared', () => {
    defineTemplate({
      ...NOTE,
      check: ({ values, sent }) => {
        // @ts-expect-error: amount is required, yet its field type may have refused it.
        printed(values.amount.toFixed(2));
        // @ts-expect-error: the note declares no tax_rate.
        sent.has('tax_rate');
        return { problems: [], totals: undefined };
      },
    });
  });

  it('takes as its number field only a required field that reads to text, and only a layout of its own fields', () => {
    // @ts-expect-error: remarks is optional.
    defineTemplate({ ...NOTE, numberField: 'remarks' });
    // @ts-expect-error: amount reads to a Decimal.
    defineTemplate({ ...NOTE, numberField: 'amount' });
    // @ts-expect-error: the invoice layout reads fields the note does not declare.
    defineTemplate({ ...NOTE, layout: layoutInvoice });
  });
});
