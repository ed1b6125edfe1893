import { beforeAll, describe, expect, it } from 'vitest';
import { TOTALS_HEADERS } from '../../src/contract/headers.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { makeDocument } from '../support/documents.ts';
import { sha256 } from '../support/pdf.ts';
import { finalBody, INVOICE_FIELDS } from '../support/requests.ts';

/**
 * The invoice's payment codes (issue 39) through the API: each scheme's invoice has the same bytes in process and
 * on Bun, Node and workerd (`npm run test:runtimes` runs this file against each), and each rule refuses its field
 * with its own detail code, as validate and create both check.
 */
const SWISS = {
  currency: 'CHF',
  payment_code: 'swiss_qr_bill',
  payee_iban: 'CH44 3199 9123 0008 8901 2',
  qr_reference: '21 00000 00003 13947 14300 09017',
  payee_street: 'Rue du Lac',
  payee_building_number: '1268',
  payee_postal_code: '2501',
  payee_town: 'Biel',
  payee_country: 'CH',
};
/** A Swiss QR-bill on an IBAN that is no QR-IBAN (PostFinance's example), which takes an RF reference or none. */
const SWISS_IBAN = { ...SWISS, payee_iban: 'CH93 0076 2011 6238 5295 7', qr_reference: undefined };

const SCHEMES: [name: string, fields: Record<string, string | undefined>, sha256: string][] = [
  [
    'sepa',
    { currency: 'EUR', payment_code: 'sepa', payee_iban: 'DE89 3704 0044 0532 0130 00', payee_bic: 'COBADEFFXXX' },
    '41df91c9be5bc818c80ce3e94c6d6d0e45af408339e158a3d82d4a733f2be717',
  ],
  [
    'sepa with an RF reference',
    { currency: 'EUR', payment_code: 'sepa', payee_iban: 'AT611904300234573201', creditor_reference: 'RF18 5390 0754 7034' },
    '6448fa13d003bd305cb4dcf8bdb229bd9db6ab86b8edeb8dba0bf3521552e814',
  ],
  [
    'upi',
    { currency: 'INR', payment_code: 'upi', upi_id: 'shop@okaxis' },
    '090a607502676036b0ccc59e2996a6130574f74211050a407c9fa226bbf18d03',
  ],
  [
    'pix',
    { currency: 'BRL', payment_code: 'pix', pix_key: '+5511987654321', pix_city: 'Rio de Janeiro' },
    '5b4cfd0ee221609e96d1f58647913e2bdc974c3b470c5482c56eff18e8af56ca',
  ],
  [
    'link',
    { currency: 'USD', payment_code: 'link', payment_link: 'https://pay.example.com/INV-1' },
    '8dfc9c36c936b59776e17a31a8bb0c8a55c8ac13be89f0cbdd6585c5abae982b',
  ],
  ['swiss_qr_bill with a QR-IBAN and a QR reference', SWISS, 'e968bc1cf599170e812d6ddc400803b6e178cc4a0607947774adbe1207fc44b2'],
  [
    'swiss_qr_bill in euros with an RF reference, in Liechtenstein',
    {
      ...SWISS_IBAN,
      currency: 'EUR',
      payee_iban: 'LI03 0880 0000 0228 7574 8',
      payee_country: 'LI',
      creditor_reference: 'RF18 5390 0754 7034',
    },
    '305b578d52ebc81742569e8dfef0fe49d808c88e0b879ce0d5cc7f7733831e79',
  ],
];

let app: TestApp;
let caller: Caller;
beforeAll(async () => {
  app = await createTestApp();
  caller = await seedCaller(app, { credits: SCHEMES.length });
});

async function problemsOf(fields: Record<string, unknown>) {
  const answer = await app.call('/api/v1/documents/validate', {
    method: 'POST',
    headers: { Authorization: `Bearer ${caller.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(finalBody('invoice', { ...INVOICE_FIELDS, ...fields })),
  });
  const body = await answer.json();
  return (body.details ?? body.error?.details ?? []).map((detail: { code: string; field: string }) => [detail.code, detail.field]);
}

describe('payment codes through the API', () => {
  it.each(SCHEMES)('%s: the same bytes on every runtime', async (_name, fields, golden) => {
    const response = await makeDocument(app, caller, finalBody('invoice', { ...INVOICE_FIELDS, ...fields }));
    expect(response.status, await response.clone().text()).toBe(201);
    // The amount every code carries is the balance due the headers state.
    expect(response.headers.get(TOTALS_HEADERS.balance_due)).toBe('100.00');
    const digest = sha256(new Uint8Array(await response.arrayBuffer()));
    expect(digest).toBe(golden);
  });

  it.each([
    [
      'an IBAN whose check digits are wrong',
      { payment_code: 'sepa', payee_iban: 'DE89370400440532013001' },
      [['invalid_iban', 'fields.payee_iban']],
    ],
    [
      'an IBAN of the wrong length for its country',
      { payment_code: 'sepa', payee_iban: 'DE8937040044053201300' },
      [['invalid_iban', 'fields.payee_iban']],
    ],
    [
      'a BIC of 9 characters',
      { payment_code: 'sepa', payee_iban: 'DE89370400440532013000', payee_bic: 'COBADEFFX' },
      [['invalid_bic', 'fields.payee_bic']],
    ],
    [
      'an RF reference whose check fails',
      { payment_code: 'sepa', payee_iban: 'DE89370400440532013000', creditor_reference: 'RF19539007547034' },
      [['invalid_creditor_reference', 'fields.creditor_reference']],
    ],
    ['sepa without an IBAN', { payment_code: 'sepa' }, [['requires_field', 'fields.payment_code']]],
    [
      'sepa in US dollars',
      { currency: 'USD', payment_code: 'sepa', payee_iban: 'DE89370400440532013000' },
      [['payment_code_currency', 'fields.payment_code']],
    ],
    [
      'sepa above what an EPC code carries',
      {
        payment_code: 'sepa',
        payee_iban: 'DE89370400440532013000',
        items: [{ description: 'Plant', quantity: '1', unit_price: '1000000000' }],
      },
      [['payment_code_amount', 'fields.payment_code']],
    ],
    [
      'sepa with a payee name of 71 characters',
      { payment_code: 'sepa', payee_iban: 'DE89370400440532013000', seller_name: 'S'.repeat(71) },
      [['too_long_for_payment_code', 'fields.seller_name']],
    ],
    [
      'sepa with an invoice number longer than its remittance',
      { payment_code: 'sepa', payee_iban: 'DE89370400440532013000', invoice_number: 'N'.repeat(141) },
      [['too_long_for_payment_code', 'fields.invoice_number']],
    ],
    ['a UPI id without a provider', { currency: 'INR', payment_code: 'upi', upi_id: 'shop' }, [['invalid_upi_id', 'fields.upi_id']]],
    ['upi in euros', { payment_code: 'upi', upi_id: 'shop@okaxis' }, [['payment_code_currency', 'fields.payment_code']]],
    [
      'a PIX key that is none',
      { currency: 'BRL', payment_code: 'pix', pix_key: '12345', pix_city: 'Recife' },
      [['invalid_pix_key', 'fields.pix_key']],
    ],
    [
      'pix without a city',
      { currency: 'BRL', payment_code: 'pix', pix_key: '+5581987654321' },
      [['requires_field', 'fields.payment_code']],
    ],
    [
      'pix with a city of 16 characters',
      { currency: 'BRL', payment_code: 'pix', pix_key: '+5581987654321', pix_city: 'C'.repeat(16) },
      [['too_long', 'fields.pix_city']],
    ],
    [
      'pix with a payee name of 26 characters',
      { currency: 'BRL', payment_code: 'pix', pix_key: '+5581987654321', pix_city: 'Recife', seller_name: 'S'.repeat(26) },
      [['too_long_for_payment_code', 'fields.seller_name']],
    ],
    ['link without a payment link', { payment_code: 'link' }, [['requires_field', 'fields.payment_code']]],
    ['a code that is none', { payment_code: 'swift' }, [['not_one_of', 'fields.payment_code']]],
    [
      'a Swiss QR-bill on a German IBAN',
      { ...SWISS_IBAN, payee_iban: 'DE89370400440532013000' },
      [['payment_code_account', 'fields.payee_iban']],
    ],
    ['a QR-IBAN without a QR reference', { ...SWISS, qr_reference: undefined }, [['payment_code_account', 'fields.payee_iban']]],
    [
      'a QR-IBAN with an RF reference',
      { ...SWISS, creditor_reference: 'RF18 5390 0754 7034' },
      [['payment_code_account', 'fields.payee_iban']],
    ],
    [
      'a QR reference on an IBAN that is no QR-IBAN',
      { ...SWISS_IBAN, qr_reference: '21 00000 00003 13947 14300 09017' },
      [['payment_code_account', 'fields.payee_iban']],
    ],
    [
      'a QR reference whose check digit is wrong',
      { ...SWISS, qr_reference: '21 00000 00003 13947 14300 09018' },
      [['invalid_qr_reference', 'fields.qr_reference']],
    ],
    ['a country that is none', { ...SWISS, payee_country: 'C1' }, [['invalid_country', 'fields.payee_country']]],
    ['two letters that are no ISO 3166-1 country', { ...SWISS, payee_country: 'XX' }, [['invalid_country', 'fields.payee_country']]],
    [
      'a Swiss QR-bill whose values take more than the 997 bytes its code carries',
      {
        ...SWISS,
        seller_name: '€'.repeat(70),
        payee_street: '€'.repeat(70),
        payee_building_number: '€'.repeat(16),
        payee_postal_code: '€'.repeat(16),
        payee_town: '€'.repeat(35),
        invoice_number: '€'.repeat(132),
      },
      [['too_long_for_payment_code', 'fields.payment_code']],
    ],
    ['a Swiss QR-bill without a town', { ...SWISS, payee_town: undefined }, [['requires_field', 'fields.payment_code']]],
    ['a Swiss QR-bill in US dollars', { ...SWISS, currency: 'USD' }, [['payment_code_currency', 'fields.payment_code']]],
    [
      'a Swiss QR-bill above what it carries',
      { ...SWISS, items: [{ description: 'Plant', quantity: '1', unit_price: '1000000000' }] },
      [['payment_code_amount', 'fields.payment_code']],
    ],
    [
      'a payee name in Cyrillic on a Swiss QR-bill',
      { ...SWISS, seller_name: 'Швейцарская компания' },
      [['payment_code_characters', 'fields.seller_name']],
    ],
    [
      'an invoice number longer than a Swiss QR-bill message',
      { ...SWISS, invoice_number: 'N'.repeat(133) },
      [['too_long_for_payment_code', 'fields.invoice_number']],
    ],
    [
      'a Swiss QR-bill payee name of 71 characters',
      { ...SWISS, seller_name: 'S'.repeat(71) },
      [['too_long_for_payment_code', 'fields.seller_name']],
    ],
  ])('refuses %s', async (_what, fields, expected) => {
    expect(await problemsOf(fields)).toEqual(expected);
  });
});
