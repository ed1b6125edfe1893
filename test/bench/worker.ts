import { type DocumentRequest, parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { workerFontFiles } from '../../src/runtimes/worker-fonts.ts';
import { renderInput } from '../../src/templates/template.ts';

/**
 * Benchmark Worker: POST /prepare/<name> parses a JSON array of request bodies once (one for a reference invoice,
 * one per call for a script invoice: measure.ts withNewGlyphs); GET /render/<name>/<call> renders the call's
 * request; GET /noop is the baseline the runner subtracts, so what remains is the render time inside workerd.
 * The script faces come from the static assets (wrangler.toml [assets]) on first use, as in the service's Worker.
 */
let assets: Fetcher | undefined;
const fonts = loadFonts(workerFontFiles(() => assets!));
const prepared = new Map<string, DocumentRequest[]>();

export default {
  async fetch(request: Request, env: { ASSETS: Fetcher }): Promise<Response> {
    assets = env.ASSETS;
    const [, action, name = '', call = '0'] = new URL(request.url).pathname.split('/');
    if (action === 'prepare') {
      const bodies: string[] = await request.json();
      prepared.set(
        name,
        bodies.map((body) => parseDocumentRequest(parseJson(body))),
      );
      return new Response('ok');
    }
    if (action === 'render') {
      const requests = prepared.get(name)!;
      const bytes = await renderPdf(renderInput(requests[Number(call) % requests.length]!), fonts);
      return new Response(String(bytes.length));
    }
    return new Response('0');
  },
};
