import { beforeAll, describe, expect, it } from 'vitest';
import { findTemplate } from '../../src/templates/registry.ts';
import { type Caller, seedCaller } from '../support/accounts.ts';
import { createTestApp, type TestApp } from '../support/app.ts';
import { ledger, makeDocument } from '../support/documents.ts';
import { sha256 } from '../support/pdf.ts';
import { fixture } from '../support/requests.ts';

/**
 * The invoices of issues 16 and 37, one per script and one mixing three (test/fixtures/script-invoices/), and the SHA-256
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
const TEMPLATE_VERSION = 'invoice@2.6.0';
const GOLDEN: [file: string, sha256: string][] = [
  ['arabic.json', '5382ef3d840b2948b1752de7c82c00a09c1b4e48fd1a346777e541acc353aa89'],
  ['hebrew.json', '0331a6547d03b2f4459927a00e22f9ed4838476875d25f2cb6feccd273e329d3'],
  ['hindi.json', 'd6e88bb6c556be0765eed8f20ecc2e292fa6ae667d790febee90552298c284b6'],
  ['thai.json', '584f7bbe664211aaabe143a9411ce5f90415ec004a1c3c0932a3c6056bee73e6'],
  ['japanese.json', 'd5b9f8a076808eadb45f8d63000aa0bfefbf3e4f207da3679629403006781c76'],
  ['chinese.json', '850376b5699054b7f9d53e2752e1ad6016362e86a46f13d02250872a3b39403b'],
  ['korean.json', '26388f3ee3025db172e020d39d56d9f73e1c2595c86897726fe74e9428fda233'],
  ['mixed.json', 'd3572e17aa5761fcac44d8f803658b06ce00fab9533c563b12ffd3b0f3333754'],
  // Issue 37: the scripts after CJK in the fallback order, and emoji.
  ['telugu.json', '89c17950f9d7ef486c115924b5ed2b83be29019563d6b74a2ac68dd61a90555f'],
  ['kannada.json', '78d02b03e521451e0a665993f7977053ae4587c21554fea57ee533c7586fb184'],
  ['malayalam.json', '6f47c41fafe93e55392bba9902da87cb92cf79e1b8fa1b3890d4a503b49ab210'],
  ['gujarati.json', '746d08077fd1bb23d03c1f0000ef5a56eb083549f6290b5f9d5306f917de0807'],
  ['punjabi.json', 'd39ee1ed7c643e0f0b84e531ecc59320d97ad4c9faf0be5dc9373d3a7d7e69d0'],
  ['odia.json', '8464665236549054e6fcdf71d85de1c8ffe20e136db3c133b5817bef6fb06557'],
  ['sinhala.json', '31bb71e0b429ad98db01b11d0cc6bcb840e630d7893544cfbf9e4ae6ba060f8c'],
  ['burmese.json', '4a6811b84bec46503d8a3542155cb35f247e8b158ab626c56ecef3fe9f06eec3'],
  ['khmer.json', '8b0202bbbadca78e1ad463fd2ab48c879c40a4b4c62a952b77ced6b9a451045c'],
  ['lao.json', '3d4a2274510282d8b2a12c0c7541f27867bf9d1c660f7c681c2df8cfb2dd7c75'],
  ['tibetan.json', 'cef6af2a5be29417e0a2bf98eb2ace597d484f7252f4490051b58aff7e366515'],
  ['amharic.json', '38153a99e527af10a215bf99abe34d75bb2f31467a515f08043dbdbbe6fff109'],
  ['georgian.json', 'e703a015a8849d79da0bff47f363206461dbcddb276c48fb990257709766fabf'],
  ['armenian.json', 'a3a7299df13462197a6396c9aee3a153ca8dcc541a89a7517eb07469ef66132d'],
  ['emoji.json', '07cb97127ff186e22c54a5db7efe2129b69207b458b528f88f1e614ac0354923'],
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
