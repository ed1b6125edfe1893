import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { seedDatabaseFile } from '../support/accounts.ts';
import { freePort } from '../support/processes.ts';
import { fixtureText } from '../support/requests.ts';

/**
 * `npm run bench:load`: Bun servers (LOAD_PROCESSES, default 1, sharing the port) on one embedded database, driven
 * from this process over loopback with 1, 8 and 64 requests in flight, for each scenario. The driver runs in Bun:
 * on two cores it shares the machine with the server, and Bun's fetch costs a third of the CPU of Node's (0.15
 * against 0.5 ms per final, printed as "driver CPU"), which leaves the server its core (p99 at 64 in flight 1.1×
 * the p50 instead of 2×). Rate limits are switched off for the run (RATE_LIMITS_ENABLED=false), or they would be
 * what is measured. Prints requests/s and p50/p99 latency, and from the server's request log how much of a
 * final's time is spent outside the renderer.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SECONDS = Number(process.env.LOAD_SECONDS ?? 4);
const CONCURRENCY = [1, 8, 64];
/**
 * Bun processes sharing the port. One by default: with two on two cores the lighter routes gain throughput, but finals
 * wait on each other for SQLite's write lock and their p99 at 64 in flight is no better (measured; see README).
 */
const PROCESSES = Number(process.env.LOAD_PROCESSES ?? 1);

const { url, client, key } = await seedDatabaseFile({ plan: 'pro', credits: 10_000_000 });
client.close();

const port = await freePort();
const servers = Array.from({ length: PROCESSES }, () =>
  spawn(here('../../node_modules/.bin/bun'), [here('../../src/runtimes/bun.ts')], {
    env: { ...process.env, PORT: String(port), REUSE_PORT: 'true', DATABASE_URL: url, RATE_LIMITS_ENABLED: 'false', LOG_REQUESTS: 'true' },
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);
const logLines: string[] = [];
for (const server of servers) {
  let pending = '';
  server.stdout!.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n');
    pending = lines.pop()!;
    logLines.push(...lines.filter((line) => line.startsWith('{')));
  });
}
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  try {
    if ((await fetch(`${base}/api/v1/templates`)).ok) break;
  } catch {
    if (i > 100) throw new Error('server did not start');
  }
  await new Promise((resolve) => setTimeout(resolve, 100));
}

const reference = fixtureText('reference-invoice.json');
const preview = JSON.stringify({ ...JSON.parse(reference), mode: 'preview' });
const auth = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
let counter = 0;
const scenarios: Record<string, () => Promise<Response>> = {
  'GET templates': () => fetch(`${base}/api/v1/templates`),
  'POST validate': () => fetch(`${base}/api/v1/documents/validate`, { method: 'POST', headers: auth, body: reference }),
  'POST preview': () => fetch(`${base}/api/v1/documents`, { method: 'POST', headers: auth, body: preview }),
  'POST final (new key)': () =>
    fetch(`${base}/api/v1/documents`, {
      method: 'POST',
      headers: { ...auth, 'Idempotency-Key': `load-${process.pid}-${counter++}` },
      body: reference,
    }),
  'POST replay': () =>
    fetch(`${base}/api/v1/documents`, { method: 'POST', headers: { ...auth, 'Idempotency-Key': 'load-replay' }, body: reference }),
};
await scenarios['POST replay']!();

async function run(scenario: () => Promise<Response>, concurrency: number) {
  const latencies: number[] = [];
  let failures = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const begin = performance.now();
        const response = await scenario();
        await response.arrayBuffer();
        latencies.push(performance.now() - begin);
        if (response.status >= 300) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))]!;
  const driverMs = (cpu.user + cpu.system) / 1000 / latencies.length;
  return { rps: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), failures, count: latencies.length, driverMs };
}

console.log(
  `Load benchmark: ${PROCESSES} Bun server process(es) sharing one port and one embedded database, ${SECONDS} s per row, driven over loopback from another Bun process.`,
);
for (const [name, scenario] of Object.entries(scenarios)) {
  for (const concurrency of CONCURRENCY) {
    logLines.length = 0;
    const result = await run(scenario, concurrency);
    let outside = '';
    if (name.startsWith('POST final')) {
      const finals = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.render_ms !== undefined && entry.status === 201);
      const duration = finals.reduce((sum, entry) => sum + entry.duration_ms, 0);
      const render = finals.reduce((sum, entry) => sum + entry.render_ms, 0);
      outside = `  server time ${(duration / finals.length).toFixed(2)} ms of which render ${(render / finals.length).toFixed(2)} ms (${(duration / render).toFixed(2)}× the render, ${(100 * (1 - render / duration)).toFixed(0)}% outside it)`;
    }
    console.log(
      `${name.padEnd(22)} c=${String(concurrency).padEnd(3)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50.toFixed(2)} ms  p99 ${result.p99.toFixed(2)} ms  (${result.count} requests${result.failures ? `, ${result.failures} not 2xx` : ''}; driver CPU ${result.driverMs.toFixed(2)} ms each)${outside}`,
    );
  }
}
for (const server of servers) server.kill('SIGTERM');
