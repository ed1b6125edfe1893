import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import IBAN from 'iban';
import { createStaticPix } from 'pix-utils';
import sepaPaymentQrCode from 'sepa-payment-qr-code';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/money/decimal.ts';
import {
  crc16,
  creditorReferenceOf,
  epcPayload,
  IBAN_LENGTHS,
  ibanOf,
  type PaymentCodeInput,
  pixPayload,
  upiPayload,
} from '../../src/templates/invoice/payment-codes.ts';
import { type PdfJsStructureNode, pdfJsStructureTree, pdftotext } from '../support/pdf.ts';
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

  it('RF creditor reference: the ISO 11649 check', () => {
    expect(creditorReferenceOf('RF18 5390 0754 7034')).toBe('RF18539007547034');
    expect(creditorReferenceOf('RF19539007547034')).toBeUndefined();
  });
});

/** The payloads the QR codes of a PDF's first page hold, read by zbarimg from the page rendered by pdftoppm. */
function decodedCodes(bytes: Uint8Array): string[] {
  const folder = tempDir('svc-qr-');
  writeFileSync(join(folder, 'document.pdf'), bytes);
  execFileSync('pdftoppm', ['-png', '-r', '150', '-f', '1', '-l', '1', join(folder, 'document.pdf'), join(folder, 'page')]);
  const page = join(folder, 'page-1.png');
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

/** The alternative texts of the first page's Figure elements, as pdf.js hands them to a screen reader. */
async function figureAlts(bytes: Uint8Array): Promise<(string | undefined)[]> {
  const figures = (node: PdfJsStructureNode): PdfJsStructureNode[] => [
    ...(node.role === 'Figure' ? [node] : []),
    ...(node.children ?? []).flatMap(figures),
  ];
  return figures(await pdfJsStructureTree(bytes, 1)).map((figure) => (figure as { alt?: string }).alt);
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
