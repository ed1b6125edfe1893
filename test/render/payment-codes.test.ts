import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import IBAN from 'iban';
import { createStaticPix } from 'pix-utils';
import sepaPaymentQrCode from 'sepa-payment-qr-code';
import { calculateQRReferenceChecksum, isQRIBAN, isQRReferenceValid } from 'swissqrbill/utils';
import { describe, expect, it } from 'vitest';
// The library's payload builder, which its package does not export (its PDF and SVG makers use it).
import { generateQRData } from '../../node_modules/swissqrbill/lib/esm/shared/qr-code.js';
import { Decimal } from '../../src/money/decimal.ts';
import {
  crc16,
  creditorReferenceOf,
  epcPayload,
  IBAN_LENGTHS,
  ibanOf,
  isQrIban,
  type PaymentCodeInput,
  pixPayload,
  qrBillAmount,
  qrBillPayload,
  qrModules,
  qrReferenceOf,
  upiPayload,
} from '../../src/templates/invoice/payment-codes.ts';
import { type PdfJsStructureNode, pdfJsStructureTree, pdftotext, readPdf } from '../support/pdf.ts';
import { tempDir } from '../support/processes.ts';
import { renderBody } from '../support/render.ts';
import { finalBody, INVOICE_FIELDS } from '../support/requests.ts';

const INPUT: PaymentCodeInput = { name: 'Seller Ltd', amount: new Decimal('1234.50'), invoiceNumber: 'INV-1' };

describe('payment code payloads, against well-kept libraries of each scheme and the schemes’ rules', () => {
  it('EPC069-12: the same twelve lines as sepa-payment-qr-code, with the invoice number or an RF reference', () => {
    const iban = 'DE89370400440532013000';
    expect(epcPayload({ ...INPUT, iban, bic: 'COBADEFFXXX' })).toBe(
      sepaPaymentQrCode({ name: 'Seller Ltd', iban, bic: 'COBADEFFXXX', amount: 1234.5, unstructuredReference: 'INV-1' }),
    );
    expect(epcPayload({ ...INPUT, iban, creditorReference: 'RF18539007547034' })).toBe(
      sepaPaymentQrCode({ name: 'Seller Ltd', iban, amount: 1234.5, structuredReference: 'RF18539007547034' }),
    );
  });

  it('PIX BR Code: the same as pix-utils, whose parser finds no error in it, CRC included', () => {
    const input = {
      ...INPUT,
      name: 'Padaria São João',
      pixKey: 'pagamentos@exemplo.com.br',
      pixCity: 'São Paulo',
      invoiceNumber: 'INV2026001',
    };
    const oracle = createStaticPix({
      merchantName: 'Padaria São João',
      merchantCity: 'São Paulo',
      pixKey: 'pagamentos@exemplo.com.br',
      infoAdicional: '',
      transactionAmount: 1234.5,
      txid: 'INV2026001',
    });
    expect('toBRCode' in oracle).toBe(true);
    expect(pixPayload(input)).toBe((oracle as { toBRCode(): string }).toBRCode());
    // An invoice number that is no transaction id (a dash) gives ***.
    expect(pixPayload({ ...input, invoiceNumber: 'INV-1' })).toContain('0503***');
  });

  it('CRC-16/CCITT-FALSE gives the standard check value', () => {
    expect(crc16('123456789')).toBe('29B1');
  });

  it('UPI: NPCI’s deep link with the payee, the amount in rupees with two decimals, INR and the note', () => {
    const link = new URL(upiPayload({ ...INPUT, upiId: 'bakery.mumbai@okhdfcbank', name: 'Shree Bakers & Sons' }));
    expect(link.protocol).toBe('upi:');
    expect(Object.fromEntries(link.searchParams)).toEqual({
      pa: 'bakery.mumbai@okhdfcbank',
      pn: 'Shree Bakers & Sons',
      am: '1234.50',
      cu: 'INR',
      tn: 'Invoice INV-1',
    });
  });

  it('IBAN: the ISO 13616 check and every country’s length as the iban library has them', () => {
    expect(ibanOf('de89 3704 0044 0532 0130 00')).toBe('DE89370400440532013000');
    expect(ibanOf('DE89 3704 0044 0532 0130 01')).toBeUndefined();
    expect(ibanOf('DE89 3704 0044 0532 0130 0')).toBeUndefined();
    // The library predates the registry's later releases: it lacks DJ, FK, HN, LY, MN, NI, OM, RU, SD, SO and YE,
    // and has Burundi's old 16-character form (27 since release 90).
    const library = IBAN.countries;
    const compared = Object.entries(IBAN_LENGTHS).filter(([country]) => library[country] && country !== 'BI');
    expect(compared.length).toBe(77);
    for (const [country, length] of compared) {
      expect(library[country]!.length, country).toBe(length);
      expect(ibanOf(library[country]!.example), country).toBe(library[country]!.example);
    }
  });

  it('Swiss QR-bill: the same payload as swissqrbill (whose validator accepts it) for a QR-IBAN with a QR reference, an IBAN with an RF reference, and one with none', () => {
    const creditor = {
      name: 'Robert Schneider AG',
      address: 'Rue du Lac',
      buildingNumber: '1268',
      zip: '2501',
      city: 'Biel',
      country: 'CH',
    };
    const address = { street: 'Rue du Lac', buildingNumber: '1268', postalCode: '2501', town: 'Biel', country: 'CH' };
    const bills = [
      { iban: 'CH4431999123000889012', qrReference: '210000000003139471430009017', reference: '210000000003139471430009017' },
      { iban: 'CH9300762011623852957', creditorReference: 'RF18539007547034', reference: 'RF18539007547034' },
      { iban: 'LI0308800000022875748', reference: undefined },
    ];
    for (const { reference, ...bill } of bills) {
      for (const currency of ['CHF', 'EUR'] as const) {
        const ours = qrBillPayload({ ...INPUT, name: creditor.name, ...address, ...bill, currency });
        const library = generateQRData({
          creditor: { ...creditor, account: bill.iban },
          currency,
          amount: 1234.5,
          ...(reference ? { reference } : {}),
          message: 'Invoice INV-1',
        });
        expect(ours, `${bill.iban} ${currency}`).toBe(library);
      }
    }
    // The street and building number may be left out of a structured address.
    expect(
      qrBillPayload({
        ...INPUT,
        name: creditor.name,
        ...address,
        street: undefined,
        buildingNumber: undefined,
        iban: 'CH9300762011623852957',
        currency: 'CHF',
      }),
    ).toBe(
      generateQRData({
        creditor: { ...creditor, address: '', buildingNumber: undefined, account: 'CH9300762011623852957' },
        currency: 'CHF',
        amount: 1234.5,
        message: 'Invoice INV-1',
      }),
    );
  });

  it('QR references and QR-IBANs: the modulo 10 recursive check and the institution ids 30000 to 31999, as swissqrbill has them', () => {
    let seed = 7;
    for (let index = 0; index < 300; index++) {
      let digits = '';
      for (let place = 0; place < 26; place++) {
        seed = (seed * 1103515245 + 12345) % 2 ** 31;
        digits += String(seed % 10);
      }
      const reference = digits + calculateQRReferenceChecksum(digits);
      expect(qrReferenceOf(reference), reference).toBe(reference);
      expect(isQRReferenceValid(reference)).toBe(true);
      const wrong = digits + String((Number(calculateQRReferenceChecksum(digits)) + 1) % 10);
      expect(qrReferenceOf(wrong), wrong).toBeUndefined();
    }
    expect(qrReferenceOf('21 00000 00003 13947 14300 09017')).toBe('210000000003139471430009017');
    expect(qrReferenceOf('0'.repeat(27))).toBeUndefined();
    for (const iban of ['CH4431999123000889012', 'CH9300762011623852957', 'LI0308800000022875748', 'CH5630000001234567890']) {
      expect(isQrIban(iban), iban).toBe(isQRIBAN(iban));
    }
  });

  it('Swiss QR code versions: 7 to 13 become 14 (no alignment pattern under the cross); none goes above 25', () => {
    const versionOf = (modules: boolean[][]) => (modules.length - 17) / 4;
    expect(versionOf(qrModules('x'.repeat(150)))).toBe(8);
    expect(versionOf(qrModules('x'.repeat(150), { clearCentre: true }))).toBe(14);
    expect(versionOf(qrModules('x'.repeat(500), { clearCentre: true }))).toBe(versionOf(qrModules('x'.repeat(500))));
    const near997 = 'ü'.repeat(490);
    expect(versionOf(qrModules(near997, { clearCentre: true }))).toBe(versionOf(qrModules(near997)));
    expect(versionOf(qrModules(near997, { clearCentre: true }))).toBeLessThanOrEqual(25);
  });

  it('Swiss QR-bill amounts: two decimals, thousands separated by spaces', () => {
    expect(qrBillAmount(new Decimal('17500'))).toBe('17 500.00');
    expect(qrBillAmount(new Decimal('999999999.99'))).toBe('999 999 999.99');
    expect(qrBillAmount(new Decimal('0.05'))).toBe('0.05');
  });

  it('RF creditor reference: the ISO 11649 check', () => {
    expect(creditorReferenceOf('RF18 5390 0754 7034')).toBe('RF18539007547034');
    expect(creditorReferenceOf('RF19539007547034')).toBeUndefined();
  });
});

/** The payloads the QR codes of a PDF's page hold (the first unless told), read by zbarimg from the page rendered by pdftoppm. */
function decodedCodes(bytes: Uint8Array, pageNumber = 1): string[] {
  const folder = tempDir('svc-qr-');
  writeFileSync(join(folder, 'document.pdf'), bytes);
  const number = String(pageNumber);
  execFileSync('pdftoppm', ['-png', '-r', '150', '-f', number, '-l', number, join(folder, 'document.pdf'), join(folder, 'page')]);
  const page = join(folder, `page-${number}.png`);
  const run = (() => {
    try {
      return execFileSync('zbarimg', ['-q', '--raw', '-Sbinary', page], { stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (error) {
      // zbarimg exits 4 when it finds no code.
      if ((error as { status?: number }).status === 4) return Buffer.alloc(0);
      throw error;
    }
  })();
  return run.length ? [new TextDecoder().decode(run)] : [];
}

/** The alternative texts of a page's Figure elements (the first unless told), as pdf.js hands them to a screen reader. */
async function figureAlts(bytes: Uint8Array, pageNumber = 1): Promise<(string | undefined)[]> {
  const figures = (node: PdfJsStructureNode): PdfJsStructureNode[] => [
    ...(node.role === 'Figure' ? [node] : []),
    ...(node.children ?? []).flatMap(figures),
  ];
  return figures(await pdfJsStructureTree(bytes, pageNumber)).map((figure) => (figure as { alt?: string }).alt);
}

const SCHEMES = {
  sepa: {
    fields: { currency: 'EUR', payment_code: 'sepa', payee_iban: 'DE89 3704 0044 0532 0130 00', payee_bic: 'COBADEFFXXX' },
    payload: epcPayload({ ...INPUT, amount: new Decimal('100.00'), iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' }),
    printed: 'Amount EUR 100.00',
  },
  upi: {
    fields: { currency: 'INR', payment_code: 'upi', upi_id: 'shop@okaxis' },
    payload: upiPayload({ ...INPUT, amount: new Decimal('100.00'), upiId: 'shop@okaxis' }),
    printed: 'Amount INR 100.00',
  },
  pix: {
    fields: { currency: 'BRL', payment_code: 'pix', pix_key: '+5511987654321', pix_city: 'Rio de Janeiro' },
    payload: pixPayload({ ...INPUT, amount: new Decimal('100.00'), pixKey: '+5511987654321', pixCity: 'Rio de Janeiro' }),
    printed: 'Amount BRL 100.00',
  },
  link: {
    fields: { currency: 'USD', payment_code: 'link', payment_link: 'https://pay.example.com/INV-1' },
    payload: 'https://pay.example.com/INV-1',
    printed: 'Amount USD 100.00',
  },
} as const;

describe('payment codes on the invoice, read by a real decoder (zbarimg) from the rendered page', () => {
  for (const [scheme, { fields, payload, printed }] of Object.entries(SCHEMES)) {
    for (const paper of ['a4', 'letter']) {
      it(`${scheme} on ${paper}: the code holds exactly the payload, the amount beside it is the balance due`, async () => {
        const bytes = await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, ...fields }, { paper }));
        expect(decodedCodes(bytes)).toEqual([payload]);
        const text = pdftotext(bytes);
        expect(text).toContain('Pay by scanning');
        expect(text).toContain(printed);
        expect(await figureAlts(bytes), 'one Figure element').toHaveLength(1);
      });
    }
  }

  it('prints no code when the balance due is 0', async () => {
    const bytes = await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, ...SCHEMES.sepa.fields, amount_paid: '100.00' }));
    expect(decodedCodes(bytes)).toEqual([]);
    expect(pdftotext(bytes)).not.toContain('Pay by scanning');
  });

  it('gives the Figure alternative text naming the scheme, the payee and the amount; the text around it is unchanged', async () => {
    const bytes = await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, ...SCHEMES.sepa.fields }));
    expect(await figureAlts(bytes)).toEqual(['SEPA credit transfer (EPC QR code) QR code: pay EUR 100.00 to Seller Ltd.']);
    const without = await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, currency: 'EUR' }));
    const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');
    const extra = lines(pdftotext(bytes)).filter((line) => !lines(pdftotext(without)).includes(line));
    expect(extra.map((line) => line.trim())).toEqual([
      'Pay by scanning',
      'SEPA credit transfer (EPC QR code)',
      'To Seller Ltd',
      'IBAN DE89 3704 0044 0532 0130 00',
      'BIC COBADEFFXXX',
      'Amount EUR 100.00',
      'Reference INV-1',
    ]);
  });
});

const SWISS = {
  currency: 'CHF',
  payment_code: 'swiss_qr_bill',
  seller_name: 'Robert Schneider AG',
  payee_iban: 'CH44 3199 9123 0008 8901 2',
  qr_reference: '21 00000 00003 13947 14300 09017',
  payee_street: 'Rue du Lac',
  payee_building_number: '1268',
  payee_postal_code: '2501',
  payee_town: 'Biel',
  payee_country: 'CH',
};
const SWISS_PAYLOAD = generateQRData({
  creditor: {
    name: 'Robert Schneider AG',
    address: 'Rue du Lac',
    buildingNumber: '1268',
    zip: '2501',
    city: 'Biel',
    country: 'CH',
    account: 'CH4431999123000889012',
  },
  currency: 'CHF',
  amount: 100,
  reference: '210000000003139471430009017',
  message: 'Invoice INV-1',
});

describe('the Swiss QR-bill on the invoice: payment part and receipt at the foot of the last page', () => {
  for (const paper of ['a4', 'letter']) {
    it(`on ${paper}: the code holds exactly swissqrbill's payload; both parts print the amount it carries, the balance due`, async () => {
      const bytes = await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, ...SWISS }, { paper }));
      expect(decodedCodes(bytes)).toEqual([SWISS_PAYLOAD]);
      const text = pdftotext(bytes);
      for (const heading of [
        'Receipt',
        'Payment part',
        'Account / Payable to',
        'Reference',
        'Additional information',
        'Acceptance point',
      ]) {
        expect(text, heading).toContain(heading);
      }
      expect(text).toContain('Separate before paying in');
      expect(text.match(/21 00000 00003 13947 14300 09017/g), 'the reference on both parts').toHaveLength(2);
      expect(text.match(/CH44 3199 9123 0008 8901 2/g), 'the account on both parts').toHaveLength(2);
      // Currency then amount on both parts, the amount the code carries and the Totals' balance due (CHF 100.00).
      expect(text.match(/CHF\s+100\.00/g)!.length, 'receipt, payment part and the totals').toBeGreaterThanOrEqual(3);
      expect(text).toContain('Page 1 of 1');
      expect(await figureAlts(bytes)).toEqual(['Swiss QR-bill QR code: pay CHF 100.00 to Robert Schneider AG.']);
    });
  }

  it('takes a page of its own when the invoice leaves no room above the slip, and groups thousands by spaces', async () => {
    const items = Array.from({ length: 14 }, (_, index) => ({
      description: `Consulting day ${index + 1}`,
      quantity: '1',
      unit_price: '1250.00',
    }));
    const fields = {
      ...INVOICE_FIELDS,
      ...SWISS,
      payee_iban: 'CH93 0076 2011 6238 5295 7',
      creditor_reference: 'RF18 5390 0754 7034',
      items,
    };
    const { qr_reference: _, ...withRf } = fields;
    const bytes = await renderBody(finalBody('invoice', withRf));
    expect(decodedCodes(bytes, 1)).toEqual([]);
    const [payload] = decodedCodes(bytes, 2);
    expect(payload!.split('\n').slice(18, 20)).toEqual(['17500.00', 'CHF']);
    expect(payload!.split('\n').slice(27, 29)).toEqual(['SCOR', 'RF18539007547034']);
    expect(pdftotext(bytes)).toContain('17 500.00');
    expect(await figureAlts(bytes, 2)).toEqual(['Swiss QR-bill QR code: pay CHF 17 500.00 to Robert Schneider AG.']);
  });

  it('keeps the longest values inside the slip: smaller sizes, then lines cut, never past its margins or over the amounts', async () => {
    const longest = {
      ...SWISS,
      payee_iban: 'CH93 0076 2011 6238 5295 7',
      qr_reference: undefined,
      seller_name: 'W'.repeat(70),
      payee_street: 'W'.repeat(70),
      payee_building_number: 'W'.repeat(16),
      payee_postal_code: 'W'.repeat(16),
      payee_town: 'W'.repeat(35),
      invoice_number: 'W'.repeat(132),
    };
    const bytes = await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, ...longest }));
    const [page] = (await readPdf(bytes)).pages;
    const millimetre = 72 / 25.4;
    // pdf.js gives each text's baseline from the page's foot: every one at least the slip's 5 mm margin up.
    for (const item of page!.items) expect(item.y, item.text).toBeGreaterThanOrEqual(5 * millimetre);
    const receipt = page!.items.filter((item) => item.x < 62 * millimetre);
    const lowest = (text: string) => Math.min(...receipt.filter((item) => item.text === text).map((item) => item.y));
    expect(lowest('Payable by (name/address)'), 'the receipt keeps its sections above its amounts').toBeGreaterThan(lowest('Currency'));
    // Below each Payable by heading the box where the payer writes: its corner marks (6 mm) within the margin (5 mm).
    for (const heading of page!.items.filter((item) => item.text === 'Payable by (name/address)')) {
      expect(heading.y, `Payable by at x ${heading.x.toFixed(0)}`).toBeGreaterThanOrEqual(12 * millimetre);
    }
    expect(decodedCodes(bytes)).toHaveLength(1);
  });

  it('prints no payment part when the balance due is 0: a paid invoice asks for no payment', async () => {
    const bytes = await renderBody(finalBody('invoice', { ...INVOICE_FIELDS, ...SWISS, amount_paid: '100.00' }));
    expect(decodedCodes(bytes)).toEqual([]);
    expect(pdftotext(bytes)).not.toContain('Payment part');
  });
});
