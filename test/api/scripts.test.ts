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
  ['arabic.json', 'be0d36556e9a1fddae8b1ef21e55dd3f7e644fbddc034b171bc560bc92037d72'],
  ['hebrew.json', 'bdf5dcee21956611cdd277d4892483fdf1d3b91253fb18a900956904ada7a5d8'],
  ['hindi.json', 'e5fbee8eac16c9e8cce4b1cc98f2fe2d28161ec7e3fa0283053171c95384aea2'],
  ['thai.json', '7c711ff4d2b084ddf925a68e103e9b55c1b36653e24faa2a089bff43fd21560f'],
  ['japanese.json', 'e576df949714c5c8a3021e1d284f7f69dcc90e2199d638c6892e0c886257d458'],
  ['chinese.json', 'fc75b971dc77bf51d68485f9d4828cfce9d4377d4f86803cc6bbf91df911f61f'],
  ['korean.json', '965a1c44c30448cf55f8e534849114883d3dc5d3e8e19692d02acb7782cab501'],
  ['mixed.json', 'defdeffdc4a39dcf990f0b5b18af188025ea2d3632e9c776a79a7672f61e5169'],
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
