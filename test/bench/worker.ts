import { type DocumentRequest, parseDocumentRequest } from '../../src/documents/request.ts';
import { warmUpRenderer } from '../../src/documents/warm-up.ts';
import { parseJson } from '../../src/json/parse.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { workerFontFiles } from '../../src/runtimes/worker-fonts.ts';
import { renderInput } from '../../src/templates/template.ts';

/**
 * Benchmark Worker: POST /prepare/<name> parses a JSON array of request bodies once (one for a reference invoice,
 * one per call for a script invoice: measure.ts withNewGlyphs); GET /render/<name>/<from>/<count> renders the
 * requests of calls from .. from + count - 1, one after the other; GET /noop is the baseline the runner subtracts,
 * so what remains is the render time inside workerd. GET /warm warms the renderer up as the service's Worker does
 * when its isolate starts (src/documents/warm-up.ts: here in a request of its own, so that its cost shows, and
 * before any other render); GET /shaper starts HarfBuzz alone; GET /read/<file> reads a
 * static asset whole (the runner subtracts it from a face's first use to leave the Worker's own work).
 * The script faces come from the static assets (wrangler.toml [assets]) on first use, as in the service's Worker.
 */
let assets: Fetcher | undefined;
const fonts = loadFonts(workerFontFiles(() => assets!));
const prepared = new Map<string, DocumentRequest[]>();

export default {
  async fetch(request: Request, env: { ASSETS: Fetcher }): Promise<Response> {
    assets = env.ASSETS;
    const [, action, name = '', from = '0', count = '1'] = new URL(request.url).pathname.split('/');
    if (action === 'prepare') {
      const bodies: string[] = await request.json();
      prepared.set(
        name,
        bodies.map((body) => parseDocumentRequest(parseJson(body))),
      );
      return new Response('ok');
    }
    if (action === 'warm') {
      warmUpRenderer(fonts);
      return new Response('0');
    }
    if (action === 'shaper') {
      await fonts.load([]);
      return new Response('0');
    }
    if (action === 'read') {
      return new Response(String((await (await env.ASSETS.fetch(new URL(name, 'https://fonts.invalid/'))).arrayBuffer()).byteLength));
    }
    if (action === 'render') {
      const requests = prepared.get(name)!;
      let bytes = 0;
      for (let call = Number(from); call < Number(from) + Number(count); call++) {
        bytes = (await renderPdf(renderInput(requests[call % requests.length]!), fonts)).length;
      }
      return new Response(String(bytes));
    }
    return new Response('0');
  },
};
