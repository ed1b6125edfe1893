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
const TEMPLATE_VERSION = 'invoice@2.1.0';
const GOLDEN: [file: string, sha256: string][] = [
  ['arabic.json', '27e3b9ad989aa1a92b89077b5edc1bfa739ed0e786d65dea194d9386b7e4e22a'],
  ['hebrew.json', '8a029ea84cf42452af43571b31bf9e5b6e4f4acc2f17c7a512fb79bd78e17b5f'],
  ['hindi.json', '7e02bdd9eec02e501e96de303cc3d8462ef036ae4d8263f9c5109de0b44e471b'],
  ['thai.json', 'f8832d486d890119d0b562e12e8c14e3af5c06dd87b01bab97c3afa3805f7922'],
  ['japanese.json', 'dec5b54cdfd38a0477ed7fefb28ff70be1d6680ba4d7e3cd5ce778d3a2f91c8f'],
  ['chinese.json', 'ae13be057729ff4e84835988bf5b5ab22d85bb1b32baddab8e5b5c65af3db945'],
  ['korean.json', 'c7a75788e0c1ec7017c3d810287887cced3ed48b796e7bfd24a86e770eadc989'],
  ['mixed.json', '5634ceb2f2bdc4fac74f9ccc6cae8b4055d767581c8cb0de595d19a77346fd57'],
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
