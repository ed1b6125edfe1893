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
const TEMPLATE_VERSION = 'invoice@2.4.0';
const GOLDEN: [file: string, sha256: string][] = [
  ['arabic.json', 'fc62ce3db587acf0c9ee1eba7e4539e4e209926d10cc7db4dac87c67a7a834cb'],
  ['hebrew.json', '17175b3a8026fc5605464607e6a49b7e68d3c822c727a5c45a0361f00708f3e7'],
  ['hindi.json', '1cfe8941ddc3e86757c4d66eb18e49a6ae2f3c59e280588c3e185339d9fee8a4'],
  ['thai.json', 'c06deb95d5bc937e4cc86b0f5c12ff05d9ee7fbbf6c9c08fc201a541315e2215'],
  ['japanese.json', '83b0010136e353dc652a66677c022f0daf1e69a26511a1eb46e503f76f5cc19c'],
  ['chinese.json', '9b37537584c5be219fbdd3926df03d88a76ed4f267530154dd941ed93e177930'],
  ['korean.json', '6313e1b0f14aca4e1c07bbcd5807bf121c0f8756c3245854b1c4ab37a7096601'],
  ['mixed.json', '827ad03e6be48ec3be7e32ca50e33435eaf5cf1380e0174ee60b63393bfa89fe'],
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
