import { GCProfiler } from 'node:v8';
import { parseDocumentRequest } from '../../src/documents/request.ts';
import { parseJson } from '../../src/json/parse.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { type RenderInput, renderPdf } from '../../src/render/index.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { renderInput } from '../../src/templates/template.ts';
import { fixtureText } from '../support/requests.ts';
import { REFERENCES, worstRequest } from './measure.ts';

/**
 * `node test/bench/gc.ts`: what the renders leave to the garbage collector, under Node (V8's GCProfiler; Bun has
 * none). Per document: the scavenges during a run of renders, how long each took (mean and slowest), and how many
 * bytes each promoted to old space, then the mark-compacts. A render's objects should die young, in the first
 * scavenge after it: bytes promoted per scavenge far above one render's live objects mean that something keeps
 * finished renders alive for a while (a closure V8 allocated in old space, a cache written per render), and
 * scavenges then take milliseconds and make the render bench's tail (flow.ts, Flow.continuation). The reference
 * invoices are rendered as they are (their subsets cached, as in `npm run bench` repeat), the largest invoice with
 * a new glyph set per call (measure.ts worstRequest). RENDERS_SMALL and RENDERS_LARGE change the counts.
 */
const fonts = loadFonts(readFontFiles());
const parse = (text: string) => renderInput(parseDocumentRequest(parseJson(text)));
const WARMUP = 100;
const RENDERS_SMALL = Number(process.env.RENDERS_SMALL ?? 3000);
/** At most 511 - WARMUP: worstRequest makes that many distinct glyph sets. */
const RENDERS_LARGE = Number(process.env.RENDERS_LARGE ?? 400);

/** Old-generation bytes in use (old space and large objects), from a GCProfiler record's space statistics. */
function oldBytes(spaces: { spaceName: string; spaceUsedSize: number }[]): number {
  return spaces
    .filter((space) => space.spaceName === 'old_space' || space.spaceName === 'large_object_space')
    .reduce((sum, space) => sum + space.spaceUsedSize, 0);
}

async function profile(document: string, inputs: (call: number) => RenderInput, renders: number): Promise<void> {
  for (let call = 0; call < WARMUP; call++) await renderPdf(inputs(call), fonts);
  const prepared = Array.from({ length: renders }, (_, call) => inputs(WARMUP + call));
  const profiler = new GCProfiler();
  profiler.start();
  for (const input of prepared) await renderPdf(input, fonts);
  const { statistics } = profiler.stop();
  const scavenges = statistics.filter((gc) => gc.gcType === 'Scavenge');
  const majors = statistics.filter((gc) => gc.gcType === 'MarkSweepCompact');
  const ms = (gcs: typeof statistics) => gcs.map((gc) => gc.cost / 1000);
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const promoted = scavenges.map((gc) => oldBytes(gc.afterGC.heapSpaceStatistics) - oldBytes(gc.beforeGC.heapSpaceStatistics));
  console.log(
    `${document.padEnd(14)} ${renders} renders  ${scavenges.length} scavenges (one per ${(renders / Math.max(1, scavenges.length)).toFixed(0)} renders): ` +
      `mean ${mean(ms(scavenges)).toFixed(2)} ms, slowest ${Math.max(0, ...ms(scavenges)).toFixed(2)} ms, ` +
      `promoted ${(mean(promoted) / 1024).toFixed(0)} KB each  ${majors.length} mark-compacts (mean ${mean(ms(majors)).toFixed(2)} ms)`,
  );
}

for (const reference of REFERENCES) {
  const input = parse(fixtureText(reference.file));
  await profile(`${reference.name} repeat`, () => input, RENDERS_SMALL);
}
const invoice = TEMPLATES.find((template) => template.slug === 'invoice')!;
await profile('invoice max', (call) => parse(worstRequest(invoice, call)), RENDERS_LARGE);
