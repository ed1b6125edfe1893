import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { freePort, startProcess } from '../support/processes.ts';
import { fixtureText } from '../support/requests.ts';
import { REFERENCES, RUNS, summarise, WARMUP } from './measure.ts';

/**
 * `npm run bench`: renders the two reference invoices under Node and under Bun (median and p95 ms per
 * document over RUNS warm renders, documents per second, PDF bytes), then the median inside workerd.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const bin = (name: string) => here(`../../node_modules/.bin/${name}`);

function inProcess(runtime: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${runtime} bench failed:\n${result.stderr}`);
  for (const line of result.stdout.trim().split('\n')) {
    const row = JSON.parse(line);
    console.log(
      `${runtime.padEnd(8)} ${row.document.padEnd(9)} median ${row.median.toFixed(2)} ms  p95 ${row.p95.toFixed(2)} ms  ` +
        `${row.perSecond.toFixed(0)} docs/s  ${row.bytes} bytes`,
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
    const time = async (path: string) => {
      for (let i = 0; i < WARMUP; i++) await (await fetch(`${server.url}${path}`)).text();
      const samples: number[] = [];
      let bytes = 0;
      for (let i = 0; i < RUNS; i++) {
        const start = performance.now();
        bytes = Number(await (await fetch(`${server.url}${path}`)).text());
        samples.push(performance.now() - start);
      }
      return summarise(samples, bytes);
    };
    const baseline = await time('/noop');
    for (const reference of REFERENCES) {
      const name = reference.file.replace('.json', '');
      await fetch(`${server.url}/prepare/${name}`, { method: 'POST', body: fixtureText(reference.file) });
      const result = await time(`/render/${name}`);
      console.log(
        `workerd  ${reference.name.padEnd(9)} median ${(result.median - baseline.median).toFixed(2)} ms (request ${result.median.toFixed(2)} ms less empty request ${baseline.median.toFixed(2)} ms)  ${result.bytes} bytes`,
      );
    }
  } finally {
    await server.stop();
  }
}

console.log(`Render benchmark: ${RUNS} warm renders per document after ${WARMUP} warm-up renders, one process.`);
inProcess('node', process.execPath, [here('render-in-process.ts')]);
inProcess('bun', bin('bun'), [here('render-in-process.ts')]);
await workerd();
