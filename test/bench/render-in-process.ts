import pako from 'pako';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { warmUpRenderer } from '../../src/documents/warm-up.ts';
import { parseJson } from '../../src/json/parse.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { type RenderInput, renderPdf } from '../../src/render/index.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { renderInput } from '../../src/templates/template.ts';
import { fixtureText } from '../support/requests.ts';
import { POOLS, REFERENCES, RUNS, SCRIPT_INVOICES, type Summary, timeRuns, WARMUP, withNewGlyphs, worstRequest } from './measure.ts';

/**
 * Renders the reference requests, then the largest valid request of each template, then the script invoices, in
 * this process (Node or Bun, whichever runs this file) and prints one JSON line per document and mode. Fonts are
 * parsed once, as in the server; each render is the whole renderPdf call. A reference invoice is rendered in two
 * modes: `repeat`, the same request every call (its font subsets made once), and `new glyphs`, a new glyph set in
 * every call (measure.ts withNewGlyphs), as for a stream of different customers. The largest requests and the
 * script invoices are rendered with new glyphs only. Requests are parsed before the clock starts. A script
 * invoice's first render (in warmProcess) is the first use of its fonts unless an invoice before it used them
 * (SCRIPT_INVOICES order: HarfBuzz and the Arabic faces with the Arabic invoice, the CJK face with the Japanese).
 */
const fonts = loadFonts(readFontFiles());
const parse = (text: string) => renderInput(parseDocumentRequest(parseJson(text)));
/**
 * BENCH_PARSE=1 (render.ts's pinned mode): each timed call parses and validates its request body too, as a request
 * does, so that the garbage parsing leaves is the run's as it is a server's.
 */
const PARSE_TIMED = process.env.BENCH_PARSE === '1';

/** The request of each call: parsed in the timed call (PARSE_TIMED), or before the clock starts. */
type Requests = (call: number) => RenderInput;
function requestsOf(texts: readonly string[]): Requests {
  if (PARSE_TIMED) return (call) => parse(texts[call % texts.length]!);
  const parsed = texts.map(parse);
  return (call) => parsed[call % parsed.length]!;
}

/**
 * The subset names of a PDF's fonts, `TAG+PostScriptName`, each once; the tag is a hash of the subset's glyphs. The
 * font dictionaries are in the PDF's one object stream (src/render/pdf/pdf-file.ts).
 */
function subsetNames(pdf: Uint8Array): string[] {
  const file = new TextDecoder('latin1').decode(pdf);
  const start = file.indexOf('stream\n', file.indexOf('/Type /ObjStm')) + 'stream\n'.length;
  const objects = new TextDecoder('latin1').decode(pako.inflate(pdf.subarray(start, file.indexOf('\nendstream', start))));
  const names = objects.matchAll(/\/BaseFont \/([A-Z]{6}\+[\w-]+)/g);
  return [...new Set([...names].map((match) => match[1]!))];
}

/**
 * Times the renders of `requests` (one per call) and checks that the run measured what it says: with `newGlyphs`
 * every PDF's subsets differ from every other PDF's in the run (a repeated glyph set would time the cache), else
 * every PDF is the same.
 */
async function timeRequests(requests: Requests, newGlyphs: boolean, document: string): Promise<Summary> {
  const pdfs: Uint8Array[] = [];
  const summary = await timeRuns(async (call) => {
    const pdf = await renderPdf(requests(call), fonts);
    pdfs.push(pdf);
    return pdf.length;
  });
  const subsets = pdfs.flatMap(subsetNames);
  if (subsets.length < pdfs.length) throw new Error(`${document}: no font subsets found in the PDFs`);
  const distinct = new Set(subsets).size;
  if (newGlyphs && distinct !== subsets.length) throw new Error(`${document}: a glyph set came back within the run`);
  if (!newGlyphs && distinct !== subsets.length / pdfs.length) throw new Error(`${document}: the repeated request drew new glyph sets`);
  return summary;
}

const calls = (make: (call: number) => string) => requestsOf(Array.from({ length: WARMUP + RUNS }, (_, call) => make(call)));

/**
 * How long the process renders the reference and script invoices, in turn, before anything is timed: a server's
 * first seconds, in which the engines compile the renderer's hot code to their optimizing tiers. Without it the
 * first document timed the compilers: its 3-line repeats, 0.45 ms once compiled, had p95/median 1.9 to 2.4 over
 * renders 100 to 400 of the process and 1.2 to 1.3 from render 700 on, in Node and in Bun alike. The script
 * invoices are in it for the same reason: with the reference invoices alone, the code only they run (HarfBuzz's
 * WebAssembly, bidi, the script faces' shaping) was still being compiled in Bun while the first of them were timed,
 * and the Arabic invoice's p95/median was 1.4 to 1.85 (Hindi's up to 1.66), 2.1 over its renders 100 to 400 and 1.2
 * from render 700 on, its median falling meanwhile from 1.27 to 1.20 ms. The process's first render is printed on
 * its own (`cold`); each document's first render, which for a script invoice includes its fonts' first use unless
 * an invoice before it used them, is printed as its rows' `first`.
 */
const PROCESS_WARMUP_MS = 2000;

/** The reference and script invoices as sent, rendered in turn by warmProcess: their file names, in that order. */
const WARMED = [...REFERENCES, ...SCRIPT_INVOICES].map((document) => document.file);

/** Each warmed document's first render in the process (ms), by file name. */
async function warmProcess(): Promise<Map<string, number>> {
  const requests = WARMED.map((file) => parse(fixtureText(file)));
  const firsts = new Map<string, number>();
  const started = performance.now();
  for (let call = 0; call < requests.length || performance.now() - started < PROCESS_WARMUP_MS; call++) {
    const start = performance.now();
    await renderPdf(requests[call % requests.length]!, fonts);
    if (call < requests.length) firsts.set(WARMED[call]!, performance.now() - start);
  }
  return firsts;
}

// As a server does before it listens (src/runtimes/server.ts): the first render below is a request's first.
const warmUpStarted = performance.now();
warmUpRenderer(fonts);
const startWarmUpMs = performance.now() - warmUpStarted;
const firsts = await warmProcess();
console.log(
  JSON.stringify({ document: 'process', mode: 'cold', first: firsts.get(WARMED[0]!), startWarmUpMs, warmupMs: PROCESS_WARMUP_MS }),
);

for (const reference of REFERENCES) {
  const text = fixtureText(reference.file);
  const repeat = await timeRequests(requestsOf([text]), false, reference.name);
  console.log(JSON.stringify({ document: reference.name, mode: 'repeat', ...repeat }));
  const fresh = await timeRequests(
    calls((call) => withNewGlyphs(text, [POOLS.latin], call)),
    true,
    reference.name,
  );
  console.log(JSON.stringify({ document: reference.name, mode: 'new glyphs', ...fresh }));
}

for (const template of TEMPLATES) {
  const document = `${template.slug} max`;
  const summary = await timeRequests(
    calls((call) => worstRequest(template, call)),
    true,
    document,
  );
  console.log(JSON.stringify({ document, mode: 'new glyphs', ...summary }));
}

for (const invoice of SCRIPT_INVOICES) {
  const text = fixtureText(invoice.file);
  const summary = await timeRequests(
    calls((call) => withNewGlyphs(text, invoice.pools, call)),
    true,
    invoice.name,
  );
  const bytes = (await renderPdf(parse(text), fonts)).length;
  console.log(JSON.stringify({ document: invoice.name, mode: 'new glyphs', ...summary, first: firsts.get(invoice.file), bytes }));
}
