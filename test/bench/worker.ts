import { type DocumentRequest, parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { workerFontFiles } from '../../src/runtimes/worker-fonts.ts';
import { renderInput } from '../../src/templates/template.ts';

/**
 * Benchmark Worker: POST /prepare/<name> parses a request once; GET /render/<name> renders it; GET /noop is
 * the baseline the runner subtracts, so what remains is the render time inside workerd.
 */
let assets: Fetcher | undefined;
const fonts = loadFonts(workerFontFiles(() => assets!));
const prepared = new Map<string, DocumentRequest>();

export default {
  async fetch(request: Request, env: { ASSETS: Fetcher }): Promise<Response> {
    assets = env.ASSETS;
    const [, action, name = ''] = new URL(request.url).pathname.split('/');
    if (action === 'prepare') {
      prepared.set(name, parseDocumentRequest(parseJson(await request.text())));
      return new Response('ok');
    }
    if (action === 'render') {
      const bytes = await renderPdf(renderInput(prepared.get(name)!), fonts);
      return new Response(String(bytes.length));
    }
    return new Response('0');
  },
};
