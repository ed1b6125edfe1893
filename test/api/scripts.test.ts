import { beforeAll, describe, expect, it } from 'vitest';
import { findTemplate } from '../../src/templates/registry.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { ledger, makeDocument } from '../support/documents.ts';
import { sha256 } from '../support/pdf.ts';
import { fixture } from '../support/requests.ts';

/**
 * The invoices of issue 16, one per script and one mixing three (test/fixtures/script-invoices/), and the SHA-256
 * of their PDF: the same golden in process and on Bun, Node and workerd (`npm run test:runtimes` runs this file
 * against each), so the three runtimes make the same bytes. A change that alters them fails here until the
 * template's version is raised and the hashes renewed, as in test/render/render.test.ts.
 *
 * The order matters. Script faces are loaded the first time a text needs them, and every run of this file starts
 * with none loaded: in process each test file has its own fonts, and `test:runtimes` starts a fresh server whose
 * other test files send only text of the Latin faces. So the first request below loads HarfBuzz and the Arabic
 * faces, Hebrew's loads the Hebrew faces, and so on to Japanese's, which loads the CJK face (19 MB; on workerd from
 * the static assets); Chinese, Korean and the mixed invoice then find their faces loaded. Each invoice is asked
 * for twice, so the first-use answer and the warm one are both held to the golden.
 */
const TEMPLATE_VERSION = 'invoice@2.2.0';
const GOLDEN: [file: string, sha256: string][] = [
  ['arabic.json', '0f0a6c90f53d2244384a8373e2a60ce2837b26bf05429a4a7d6e5875c81de489'],
  ['hebrew.json', '99c5a7b9908c981c11494d7747abfbb866d76f86134f43fb3e3d190896848b7e'],
  ['hindi.json', '8cf021a26c776a6abfa6e80ebeb66102105ddf5b1d0de3aab16926c51713cded'],
  ['thai.json', 'c90576cc3d248319033be8ca0ddc2fe45dd587252a06dfef4ca539bcf0f86b99'],
  ['japanese.json', '830fccd3606393b18d5d4b6d687f017d74dc34ab4a2f14d03f6019e31ac06799'],
  ['chinese.json', '74ff2ebedada36a0849fdd9684e69015022edb0074d2a23f48b9aa230f75ae56'],
  ['korean.json', '2542fffb026a44d4f634ecf7b647dbbe7f92cd90a5b32fd0c773e64ac225bedb'],
  ['mixed.json', '95638eac4bcef66a49c6fc8be413a8c27a21d8a616370c13e344dba1d9d8ddb5'],
];
/** Issue 16's target for each of these PDFs. */
const MAX_BYTES = 60_000;

let app: TestApp;
let caller: Caller;
beforeAll(async () => {
  app = await createTestApp();
  caller = await seedCaller(app, { credits: 2 * GOLDEN.length });
});

describe('invoices in the scripts of issue 16: the same bytes everywhere', () => {
  it('renders the golden template version', () => {
    const [slug, version] = TEMPLATE_VERSION.split('@');
    expect(findTemplate(slug!)!.version, 'renew the goldens when the version changes').toBe(version);
  });

  it.each(GOLDEN)('%s gives its golden SHA-256 when its faces are first used and again when warm', async (file, golden) => {
    const request = fixture(`script-invoices/${file}`);
    for (const use of ['first use', 'warm']) {
      const response = await makeDocument(app, caller, request);
      expect(response.status, `${use}: ${response.status === 201 ? '' : await response.clone().text()}`).toBe(201);
      const bytes = new Uint8Array(await response.arrayBuffer());
      expect(sha256(bytes), use).toBe(golden);
      expect(response.headers.get('Svc-Document-Sha256'), use).toBe(golden);
      expect(bytes.length, use).toBeLessThanOrEqual(MAX_BYTES);
    }
  });

  it('recorded each document with its hash, and charged a credit for each', async () => {
    const state = await ledger(app, caller);
    expect(state.credits).toBe(0);
    expect(state.rows.map((row) => row.sha256).sort()).toEqual(GOLDEN.flatMap(([, golden]) => [golden, golden]).sort());
  });
});
