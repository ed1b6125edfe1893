import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess } from '../support/processes.ts';
import { fixtureText } from '../support/requests.ts';
import { REFERENCES, RUNS, SCRIPT_INVOICES, type Summary, summarise, WARMUP, withNewGlyphs } from './measure.ts';

/**
 * `npm run bench`: renders the two reference invoices and the script invoices of issue 16 under Node and under Bun
 * (median and p95 ms per document over RUNS warm renders, documents per second, PDF bytes, and the first render),
 * then the median inside workerd. Each script invoice is rendered with a new glyph set in every font at every call
 * (measure.ts withNewGlyphs), so that no render reuses a font subset made by an earlier one; the reference invoices
 * as they are, as before issue 16. The first render of a script invoice includes its fonts' first use (loading the
 * face, and HarfBuzz with the Arabic invoice): in workerd that is the static-assets read of the face.
 * BENCH_WARMUP and BENCH_RUNS change the counts for a quick look (at most 511 calls in all).
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const bin = (name: string) => here(`../../node_modules/.bin/${name}`);

const row = (runtime: string, document: string) => `${runtime.padEnd(8)} ${document.padEnd(9)}`;

function inProcess(runtime: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${runtime} bench failed:\n${result.stderr}`);
  for (const line of result.stdout.trim().split('\n')) {
    const summary: Summary & { document: string } = JSON.parse(line);
    console.log(
      `${row(runtime, summary.document)} median ${summary.median.toFixed(2)} ms  p95 ${summary.p95.toFixed(2)} ms  ` +
        `${summary.perSecond.toFixed(0)} docs/s  ${summary.bytes} bytes  first ${summary.first.toFixed(1)} ms`,
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
    const time = async (path: (call: number) => string) => {
      let bytes = 0;
      let first = 0;
      for (let call = 0; call < WARMUP; call++) {
        const start = performance.now();
        bytes = Number(await (await fetch(`${server.url}${path(call)}`)).text());
        if (call === 0) first = performance.now() - start;
      }
      const samples: number[] = [];
      for (let call = WARMUP; call < WARMUP + RUNS; call++) {
        const start = performance.now();
        await (await fetch(`${server.url}${path(call)}`)).text();
        samples.push(performance.now() - start);
      }
      return summarise(samples, bytes, first);
    };
    const prepare = (name: string, bodies: string[]) =>
      fetch(`${server.url}/prepare/${name}`, { method: 'POST', body: JSON.stringify(bodies) }).then((response) => response.text());
    const baseline = await time(() => '/noop');
    const print = (document: string, result: Summary, extra: string) =>
      console.log(
        `${row('workerd', document)} median ${(result.median - baseline.median).toFixed(2)} ms (request ${result.median.toFixed(2)} ms less empty request ${baseline.median.toFixed(2)} ms)  ${extra}`,
      );
    for (const reference of REFERENCES) {
      const name = reference.file.replace('.json', '');
      await prepare(name, [fixtureText(reference.file)]);
      const result = await time(() => `/render/${name}`);
      print(reference.name, result, `${result.bytes} bytes`);
    }
    for (const invoice of SCRIPT_INVOICES) {
      const text = fixtureText(invoice.file);
      await prepare(
        invoice.name,
        Array.from({ length: WARMUP + RUNS }, (_, call) => withNewGlyphs(text, invoice.pools, call)),
      );
      const result = await time((call) => `/render/${invoice.name}/${call}`);
      print(invoice.name, result, `first ${(result.first - baseline.median).toFixed(1)} ms`);
    }
  } finally {
    await server.stop();
  }
}

console.log(`Render benchmark: ${RUNS} warm renders per document after ${WARMUP} warm-up renders, one process.`);
inProcess('node', process.execPath, [here('render-in-process.ts')]);
inProcess('bun', bin('bun'), [here('render-in-process.ts')]);
await workerd();
