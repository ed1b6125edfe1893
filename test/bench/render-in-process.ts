import pako from 'pako';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { renderPdf } from '../../src/render/index.ts';
import { renderInput } from '../../src/templates/template.ts';
import { fixtureText } from '../support/requests.ts';
import { REFERENCES, RUNS, SCRIPT_INVOICES, timeRuns, WARMUP, withNewGlyphs } from './measure.ts';

/**
 * Renders the reference requests, then the script invoices, in this process (Node or Bun, whichever runs this file)
 * and prints one JSON line per document. Fonts are parsed once, as in the server; each render is the whole
 * renderPdf call. The reference invoices are rendered as they are, as before issue 16. Each script invoice is
 * rendered with a new glyph set in every font at every call (measure.ts withNewGlyphs), its requests parsed
 * before the clock starts; its first call is the first use of its fonts unless an invoice before it used them
 * (SCRIPT_INVOICES order: HarfBuzz and the Arabic faces with the Arabic invoice, the CJK face with the Japanese).
 */
const fonts = loadFonts(readFontFiles());
const render = (text: string) => renderPdf(renderInput(parseDocumentRequest(parseJson(text))), fonts);

for (const reference of REFERENCES) {
  const request = parseDocumentRequest(parseJson(fixtureText(reference.file)));
  const summary = await timeRuns(async () => (await renderPdf(renderInput(request), fonts)).length);
  console.log(JSON.stringify({ document: reference.name, ...summary }));
}

/**
 * The subset names of a PDF's fonts, `TAG+PostScriptName`, each once; the tag is a hash of the subset's glyphs. The
 * font dictionaries are in the PDF's one object stream (src/render/pdf-file.ts).
 */
function subsetNames(pdf: Uint8Array): string[] {
  const file = new TextDecoder('latin1').decode(pdf);
  const start = file.indexOf('stream\n', file.indexOf('/Type /ObjStm')) + 'stream\n'.length;
  const objects = new TextDecoder('latin1').decode(pako.inflate(pdf.subarray(start, file.indexOf('\nendstream', start))));
  const names = objects.matchAll(/\/BaseFont \/([A-Z]{6}\+[\w-]+)/g);
  return [...new Set([...names].map((match) => match[1]!))];
}

for (const invoice of SCRIPT_INVOICES) {
  const text = fixtureText(invoice.file);
  const requests = Array.from({ length: WARMUP + RUNS }, (_, call) =>
    renderInput(parseDocumentRequest(parseJson(withNewGlyphs(text, invoice.pools, call)))),
  );
  const pdfs: Uint8Array[] = [];
  const summary = await timeRuns(async (call) => {
    const pdf = await renderPdf(requests[call]!, fonts);
    pdfs.push(pdf);
    return pdf.length;
  });
  const subsets = pdfs.flatMap(subsetNames);
  if (subsets.length < pdfs.length) throw new Error(`${invoice.name}: no font subsets found in the PDFs`);
  if (new Set(subsets).size !== subsets.length) throw new Error(`${invoice.name}: a glyph set came back within the run`);
  const bytes = (await render(text)).length;
  console.log(JSON.stringify({ document: invoice.name, ...summary, bytes }));
}
