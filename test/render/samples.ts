import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findTemplate } from '../../src/templates/registry.ts';
import { ROOT } from '../support/processes.ts';
import { renderBody } from '../support/render.ts';
import { fixture } from '../support/requests.ts';

/**
 * `node test/render/samples.ts`: renders the three templates on A4 and Letter, the 50-line reference invoice, a
 * worst case (long figures and identifiers, 2,000-character blocks, a preview) and the invoice in each script
 * (test/fixtures/script-invoices) into dist/samples (ignored by git), as PDF and as PNG pages at 60 dpi
 * (`pdftoppm` from poppler-utils), for a person to look at.
 */
const OUT = join(ROOT, 'dist/samples');
const long = (n: number, what: string) =>
  `${what} `
    .repeat(Math.ceil(n / (what.length + 1)))
    .slice(0, n)
    .trim();

const worstCase = {
  template: 'invoice',
  mode: 'preview',
  fields: {
    seller_name: 'Worst Case Supplies Ltd',
    seller_details: long(2000, 'Seller address line'),
    client_name: 'Client Company Inc.',
    client_details: 'Ünïcødé Straße 1\n10117 Berlin',
    invoice_number: 'INV-2026-000000000123456789/ACME-PROCUREMENT-EMEA',
    date: '2026-10-01',
    due_date: '2026-10-31',
    po_number: '4500012345/ACME-PROCUREMENT-EMEA',
    currency: 'EUR',
    items: [
      { description: 'Bulk material, metric tonnes', quantity: '12,345.678', unit_price: '99.9999' },
      { description: 'Very large order', quantity: '1', unit_price: '9999999999.99' },
      { description: 'Credit for returned goods', quantity: '-1', unit_price: '120.50' },
      {
        description: 'Wiring harness\u00ADassembly with sub\u00ADcomponents and a very long description that wraps',
        quantity: '1234',
        unit_price: '1,234.5678',
      },
    ],
    discount: '5%',
    tax_rate: '21%',
    tax_label: 'VAT',
    amount_paid: '100.00',
    payment_terms: 'Net 30',
    payment_instructions: long(2000, 'Pay\tby bank transfer'),
    payment_link: 'https://pay.example.com/(x)/S/JavaScript/JS(app.alert(1)',
    notes: long(2000, 'Note text'),
  },
};

const SAMPLES: Record<string, unknown> = {
  'invoice-reference-a4': fixture('reference-invoice.json'),
  'invoice-reference-letter': { ...fixture('reference-invoice.json'), paper: 'letter' },
  'invoice-50-a4': fixture('reference-invoice-50.json'),
  'invoice-50-letter-preview': { ...fixture('reference-invoice-50.json'), paper: 'letter', mode: 'preview' },
  'invoice-worst-a4': worstCase,
  'invoice-worst-letter': { ...worstCase, paper: 'letter' },
  'quote-a4': { ...findTemplate('quote')!.example, mode: 'final' },
  'quote-letter-preview': { ...findTemplate('quote')!.example, paper: 'letter' },
  'receipt-a4': { ...findTemplate('receipt')!.example, mode: 'final' },
  'receipt-letter-preview': { ...findTemplate('receipt')!.example, paper: 'letter' },
  ...Object.fromEntries(
    readdirSync(join(ROOT, 'test/fixtures/script-invoices')).map((file) => [
      `script-${file.replace(/\.json$/, '')}-a4`,
      fixture(`script-invoices/${file}`),
    ]),
  ),
  'script-arabic-letter-preview': { ...fixture('script-invoices/arabic.json'), paper: 'letter', mode: 'preview' },
};

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
for (const [name, body] of Object.entries(SAMPLES)) {
  const file = join(OUT, `${name}.pdf`);
  writeFileSync(file, await renderBody(body));
  execFileSync('pdftoppm', ['-png', '-r', '60', file, join(OUT, name)]);
  console.log(file);
}
