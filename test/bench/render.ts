import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FAMILIES_AT_START } from '../../src/render/fonts.ts';
import { FALLBACK_FACES } from '../../src/render/text/font-coverage.ts';
import { TEMPLATES } from '../../src/templates/registry.ts';
import { freePort, startProcess } from '../support/processes.ts';
import { fixtureText } from '../support/requests.ts';
import { POOLS, REFERENCES, RUNS, SCRIPT_INVOICES, type Summary, WARMUP, withNewGlyphs, worstRequest } from './measure.ts';
import { groupCpuMs } from './process-cpu.ts';

/**
 * `npm run bench`: renders the two reference invoices, the largest valid request of each template and the script
 * invoices of issue 16 under Node and under Bun (median, p95 and slowest ms per document over RUNS warm renders,
 * documents per second, PDF bytes, and the first render), then inside workerd. A reference invoice is rendered as
 * it is (`repeat`: its font subsets made once) and with a new glyph set in every font at every call (`new glyphs`,
 * measure.ts withNewGlyphs), as for a stream of different customers; everything else with new glyphs only. It
 * prints the targets of issue 19 as ratios measured in the same run: new glyphs ÷ repeat (median) and p95 ÷
 * median; and in workerd the slowest largest request against the Workers Free plan's 10 ms of CPU per request.
 * The first render of a script invoice includes its fonts' first use (loading the face, and HarfBuzz with the
 * Arabic invoice): in workerd that is the static-assets read of the face.
 * BENCH_WARMUP and BENCH_RUNS change the counts for a quick look (at most 511 calls in all).
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const bin = (name: string) => here(`../../node_modules/.bin/${name}`);

/**
 * Renders per request in workerd: a request through `wrangler dev` costs more than a render, and varies more, so
 * each timed request renders a batch and the runner takes off the median empty request.
 */
const WORKERD_BATCH = 10;

/**
 * BENCH_ONLY=workerd: only the workerd part; BENCH_ONLY=first-use: only the first use of each face in workerd, for a
 * quick look (under a minute).
 */
const FIRST_USES_ONLY = process.env.BENCH_ONLY === 'first-use';
const WORKERD_ONLY = FIRST_USES_ONLY || process.env.BENCH_ONLY === 'workerd';

/** CPU time a Worker may spend on one request on the Workers Free plan. */
const WORKER_CPU_BUDGET_MS = 10;
/** Half the budget, as machines differ by 2× (issue 37): what a face's first use and the largest requests aim at. */
const WORKER_CPU_TARGET_MS = WORKER_CPU_BUDGET_MS / 2;

const row = (runtime: string, document: string, mode: string) => `${runtime.padEnd(8)} ${document.padEnd(12)} ${mode.padEnd(10)}`;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;

function inProcess(runtime: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${runtime} bench failed:\n${result.stderr}`);
  const repeats = new Map<string, number>();
  for (const line of result.stdout.trim().split('\n')) {
    const summary: Summary & { document: string; mode: string; startWarmUpMs?: number; warmupMs?: number } = JSON.parse(line);
    if (summary.mode === 'cold') {
      console.log(
        `${runtime.padEnd(8)} warm-up at start ${summary.startWarmUpMs!.toFixed(1)} ms, first render of the process ${summary.first.toFixed(1)} ms, ` +
          `then ${summary.warmupMs! / 1000} s of the reference and script invoices before timing`,
      );
      continue;
    }
    if (summary.mode === 'repeat') repeats.set(summary.document, summary.median);
    const repeat = repeats.get(summary.document);
    const versus = summary.mode === 'new glyphs' && repeat ? `  new/repeat ${times(summary.median / repeat)}` : '';
    console.log(
      `${row(runtime, summary.document, summary.mode)} median ${summary.median.toFixed(2)} ms  p95 ${summary.p95.toFixed(2)} ms ` +
        `(p95/median ${times(summary.p95 / summary.median)})  max ${summary.max.toFixed(2)} ms  ${summary.perSecond.toFixed(0)} docs/s  ` +
        `${summary.bytes} bytes  first ${summary.first.toFixed(1)} ms${versus}`,
    );
  }
}

type TimedRequest = (path: string) => Promise<{ ms: number; cpu: number; background: number; bytes: number }>;

/**
 * The first use of each script face in a fresh isolate, before any other render: HarfBuzz's start alone, then the
 * first render of each script invoice (test/fixtures/script-invoices), whose faces no earlier invoice loaded (the
 * mixed invoice comes last). CPU time is workerd's, from the scheduler (process-cpu.ts), less an empty request's,
 * with V8's background compiling apart (`background`); it includes serving the static asset, which Cloudflare does
 * outside the Worker, so each face's read alone is printed too (`asset read`, a request that only reads the file).
 */
async function firstUses(
  cpuOf: TimedRequest,
  prepare: (name: string, bodies: string[]) => Promise<string>,
  cpuBaseline: number,
  wallBaseline: number,
): Promise<void> {
  const margin = (cpu: number) => `margin to ${WORKER_CPU_TARGET_MS} ms: ${(WORKER_CPU_TARGET_MS - cpu).toFixed(2)} ms`;
  console.log(
    `workerd first use of each face (CPU less an empty request's ${cpuBaseline.toFixed(2)} ms; wall less ${wallBaseline.toFixed(2)} ms)`,
  );
  // The isolate's start in the service's Worker, before its first request (its limit is 400 ms, not the request's).
  const warm = await cpuOf('/warm');
  console.log(
    `${row('workerd', 'warm-up', 'start')} CPU ${(warm.cpu - cpuBaseline).toFixed(2)} ms (the isolate's start, not a request's; ` +
      `it loads the faces of ${FAMILIES_AT_START.join(', ')}, whose rows below are a render, not a first use)`,
  );
  const shaper = await cpuOf('/shaper');
  console.log(
    `${row('workerd', 'HarfBuzz', 'start')} CPU ${(shaper.cpu - cpuBaseline).toFixed(2)} ms  wall ${(shaper.ms - wallBaseline).toFixed(1)} ms  ${margin(shaper.cpu - cpuBaseline)}`,
  );
  const files = readdirSync(here('../fixtures/script-invoices')).sort(
    (a, b) => Number(a === 'mixed.json') - Number(b === 'mixed.json') || a.localeCompare(b),
  );
  for (const file of files) {
    const name = `first-${file.replace('.json', '')}`;
    await prepare(name, [fixtureText(`script-invoices/${file}`)]);
    const first = await cpuOf(`/render/${name}/0/1`);
    // The same document again: what the first render cost beyond it is the faces' first use and the compiling of code
    // no render ran before.
    const again = await cpuOf(`/render/${name}/0/1`);
    const cpu = first.cpu - cpuBaseline;
    console.log(
      `${row('workerd', file.replace('.json', ''), 'first use')} CPU ${cpu.toFixed(2)} ms (V8 background ${first.background.toFixed(1)} ms)  ` +
        `again ${(again.cpu - cpuBaseline).toFixed(2)} ms  wall ${(first.ms - wallBaseline).toFixed(1)} ms  ${margin(cpu)}`,
    );
  }
  for (const face of new Set(FALLBACK_FACES.map((info) => info.file))) {
    const read = await cpuOf(`/read/${face}`);
    console.log(
      `${row('workerd', face.replace(/\.ttf$/, ''), 'asset read')} CPU ${(read.cpu - cpuBaseline).toFixed(2)} ms  ${read.bytes} bytes`,
    );
  }
}

async function workerd(): Promise<void> {
  const port = await freePort();
  const server = await startProcess(
    process.execPath,
    [
      here('../../.ci/wrangler.mjs'),
      'dev',
      '--local',
      '--config',
      here('wrangler.toml'),
      '--port',
      String(port),
      '--ip',
      '127.0.0.1',
      '--show-interactive-dev-session=false',
    ],
    { port, readyPath: '/noop', timeoutMs: 60_000 },
  );
  try {
    const request = async (path: string) => {
      const start = performance.now();
      const bytes = Number(await (await fetch(`${server.url}${path}`)).text());
      return { ms: performance.now() - start, bytes };
    };
    const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
    const empty: number[] = [];
    for (let i = 0; i < WARMUP + RUNS / WORKERD_BATCH; i++) empty.push((await request('/noop')).ms);
    const baseline = median(empty.slice(WARMUP));
    /** workerd's CPU time for one request, less an empty request's (median of 21). */
    const cpuOf = async (path: string) => {
      const before = groupCpuMs(server.process.pid!, 'workerd');
      const answer = await request(path);
      const after = groupCpuMs(server.process.pid!, 'workerd');
      return { ...answer, cpu: after.own - before.own, background: after.background - before.background };
    };
    const emptyCpu: number[] = [];
    for (let i = 0; i < 21; i++) emptyCpu.push((await cpuOf('/noop')).cpu);
    const cpuBaseline = median(emptyCpu);
    /** The first call alone (for a script invoice, its fonts' first use), then the rest in batches. */
    const time = async (name: string) => {
      const first = await request(`/render/${name}/0/1`);
      for (let from = 1; from < WARMUP; from += WORKERD_BATCH) {
        await request(`/render/${name}/${from}/${Math.min(WORKERD_BATCH, WARMUP - from)}`);
      }
      const batches: number[] = [];
      for (let from = WARMUP; from < WARMUP + RUNS; from += WORKERD_BATCH) {
        batches.push(((await request(`/render/${name}/${from}/${WORKERD_BATCH}`)).ms - baseline) / WORKERD_BATCH);
      }
      return { first: first.ms - baseline, median: median(batches), max: Math.max(...batches), bytes: first.bytes };
    };
    const prepare = (name: string, bodies: string[]) =>
      fetch(`${server.url}/prepare/${name}`, { method: 'POST', body: JSON.stringify(bodies) }).then((response) => response.text());
    await firstUses(cpuOf, prepare, cpuBaseline, baseline);
    if (FIRST_USES_ONLY) return;
    const eachCall = (make: (call: number) => string) => Array.from({ length: WARMUP + RUNS }, (_, call) => make(call));
    console.log(
      `workerd: ${RUNS / WORKERD_BATCH} requests of ${WORKERD_BATCH} renders after ${WARMUP} warm-up renders; per render ` +
        `(request less an empty request, ${baseline.toFixed(2)} ms) / ${WORKERD_BATCH}, median and slowest over the requests.`,
    );
    for (const reference of REFERENCES) {
      const name = reference.file.replace('.json', '');
      const text = fixtureText(reference.file);
      await prepare(name, [text]);
      const repeat = await time(name);
      console.log(`${row('workerd', reference.name, 'repeat')} median ${repeat.median.toFixed(2)} ms  ${repeat.bytes} bytes`);
      await prepare(
        `${name}-new`,
        eachCall((call) => withNewGlyphs(text, [POOLS.latin], call)),
      );
      const fresh = await time(`${name}-new`);
      console.log(
        `${row('workerd', reference.name, 'new glyphs')} median ${fresh.median.toFixed(2)} ms  new/repeat ${times(fresh.median / repeat.median)}`,
      );
    }
    for (const template of TEMPLATES) {
      const name = `${template.slug}-max`;
      await prepare(
        name,
        eachCall((call) => worstRequest(template, call)),
      );
      const result = await time(name);
      const margin = WORKER_CPU_BUDGET_MS - result.max;
      console.log(
        `${row('workerd', `${template.slug} max`, 'new glyphs')} median ${result.median.toFixed(2)} ms  slowest ${result.max.toFixed(2)} ms  ` +
          `${result.bytes} bytes  first ${result.first.toFixed(1)} ms  margin to ${WORKER_CPU_BUDGET_MS} ms of CPU: ${margin.toFixed(2)} ms ` +
          `(${times(WORKER_CPU_BUDGET_MS / result.max)})`,
      );
    }
    for (const invoice of SCRIPT_INVOICES) {
      const text = fixtureText(invoice.file);
      await prepare(
        invoice.name,
        eachCall((call) => withNewGlyphs(text, invoice.pools, call)),
      );
      const result = await time(invoice.name);
      console.log(
        `${row('workerd', invoice.name, 'new glyphs')} median ${result.median.toFixed(2)} ms  first ${result.first.toFixed(1)} ms`,
      );
    }
  } finally {
    await server.stop();
  }
}

/**
 * The pinned mode (issue 37): the same runs on one core (`taskset -c 1`, as one server core runs a process) with each
 * request's parsing and validation timed with its render, so that the collector's work for the whole request
 * competes with the render on that core, as it does in a server.
 */
function pinned(runtime: string, command: string): void {
  process.env.BENCH_PARSE = '1';
  try {
    inProcess(`${runtime}·1c`, 'taskset', ['-c', '1', command, here('render-in-process.ts')]);
  } finally {
    delete process.env.BENCH_PARSE;
  }
}

if (!WORKERD_ONLY) {
  console.log(`Render benchmark: ${RUNS} warm renders per document after ${WARMUP} warm-up renders, one process.`);
  inProcess('node', process.execPath, [here('render-in-process.ts')]);
  inProcess('bun', bin('bun'), [here('render-in-process.ts')]);
  console.log('Pinned to one core (taskset -c 1), each request parsed and validated in its timed call:');
  pinned('node', process.execPath);
  pinned('bun', bin('bun'));
}
await workerd();
