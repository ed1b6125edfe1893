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
const TEMPLATE_VERSION = 'invoice@2.3.0';
const GOLDEN: [file: string, sha256: string][] = [
  ['arabic.json', '23b0b935d49d35e4e9e99657995a5662b9025de25f8557deb16dceb4abdd2343'],
  ['hebrew.json', '850a852441c1c014538445a5f09c501a2a88b4558b84ab1a0ddb46a16462ac26'],
  ['hindi.json', 'bc28462843717bcb6aef45f3d6a77084b2c88ed21f9449199cb9157491a9a092'],
  ['thai.json', '4423997c932135b975c6a3268d9e454c3b91e54d7b8ef965f0d192210a194caf'],
  ['japanese.json', 'c62dd0a941d14d2a85a7ff048b15e152ddeddc8c28a63905673d8ed20e3d5aba'],
  ['chinese.json', '34752aa6233ca2f96dba773d4882a9236c02603cd27a719ebaaeeb6d1dc95921'],
  ['korean.json', '07a442cf836d35240e40d2f95510f36968a66d6db924050c6f614bbb0099bbdc'],
  ['mixed.json', '93e00da7212fa6690d02dee2a7620e596874f01ec527eeceb57bc77520e150c8'],
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
