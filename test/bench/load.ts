import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/db/libsql.ts';
import { GLOBAL_PREVIEW_LIMITS } from '../../src/limits/buckets.ts';
import { freePort, tempDir } from '../support/processes.ts';
import { fixtureText } from '../support/requests.ts';
import { seedAccounts } from './accounts.ts';
import { type AnswerShape, CONSTANT_SERVER_ANSWERS } from './constant-answers.ts';

/**
 * `npm run bench:load`: Bun servers (LOAD_PROCESSES, default 1, sharing the port) on one embedded database, driven
 * from this process over loopback with 1, 8 and 64 requests in flight, for each scenario; twice, by two such servers
 * on two databases started together: with the rate limits off (RATE_LIMITS_ENABLED=false), then at once on, as in
 * production. With them on, requests go round a pool of
 * keys (LOAD_ACCOUNTS accounts of two keys each) so that no limit is reached: every keyed answer must carry
 * RateLimit-Remaining, and a 429 stops the run (the pool was too small for the machine: raise LOAD_ACCOUNTS), so
 * that neither pass measures something else. The driver runs in Bun: on two cores it shares the machine with the
 * server, and Bun's fetch costs a third of the CPU of Node's (0.15 against 0.5 ms per final, printed as "driver
 * CPU"), which leaves the server its core (p99 at 64 in flight 1.1× the p50 instead of 2×). Prints requests/s and
 * p50/p99 latency, at 64 in flight p99 against the queueing bound (64 ÷ requests/s), from the server's request log
 * how much of a final's time is spent outside the renderer, the finals' throughput with the limits on against
 * off, and last the HTTP server's own tail for a handler of constant time served four ways (constantHandlerRows),
 * to read the rows against.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const SECONDS = Number(process.env.LOAD_SECONDS ?? 4);
const CONCURRENCY = [1, 8, 64];
/**
 * Bun processes sharing the port. One by default: with two on two cores the lighter routes gain throughput, but finals
 * wait on each other for SQLite's write lock and their p99 at 64 in flight is no better (measured; see docs/scaling.md).
 */
const PROCESSES = Number(process.env.LOAD_PROCESSES ?? 1);
/**
 * Accounts of the limits-on pass. Requests take the keys in turn, so a key gets 1/(2 × LOAD_ACCOUNTS) of the pass's
 * keyed requests: with 600 accounts and 100,000 requests, 84, below the 120 per minute every plan allows, and 9
 * previews, below 30 an hour (60 an account); each account replays its own final, 42 times, below 60 a minute.
 */
const ACCOUNTS = Number(process.env.LOAD_ACCOUNTS ?? 600);

interface Credential {
  key: string;
  /** The account's Idempotency-Key of the final the replay scenario sends again. */
  replayKey: string;
}

/** A new database file with `accounts` confirmed pro accounts of two full keys each (seedAccounts). */
async function seedDatabase(accounts: number): Promise<{ url: string; credentials: Credential[] }> {
  const url = `file:${join(tempDir('svc-load-'), 'svc.db')}`;
  const { db, client } = await openDatabase(url);
  const keys = await seedAccounts(db, accounts, 'load');
  client.close();
  // An account's two keys share the final its replays send again.
  return { url, credentials: keys.map((key, index) => ({ key, replayKey: `load-replay-${Math.floor(index / 2)}` })) };
}

interface Scenario {
  /** Sent with a key (and so counted by the limiter). */
  keyed: boolean;
  /** Most requests a row sends, when fewer than its seconds allow. */
  budget?: number;
  send: () => Promise<Response>;
}

interface Row {
  scenario: string;
  concurrency: number;
  rps: number;
  p50: number;
  p99: number;
  /** Answers outside 2xx: such a row timed refusals, not the work. */
  failures: number;
  /** Server time of a final outside the render, ms (from the request log); finals only. */
  outsideRender?: number;
}

/** What one stretch of a row measured, to be merged with the row's other stretches. */
interface Stretch {
  latencies: number[];
  elapsed: number;
  failures: number;
  driverMs: number;
  /** Server time and render time of the finals answered, from the request log (finals only). */
  finals: { count: number; duration: number; render: number };
}

/** A server process (or LOAD_PROCESSES of them) on its own database, with the limits off or on, and its scenarios. */
interface Pass {
  readonly rateLimits: boolean;
  readonly label: string;
  readonly scenarios: Record<string, Scenario>;
  /** The shape of a final this pass's server answered. */
  readonly finalShape: AnswerShape;
  measure(scenario: Scenario, concurrency: number, seconds: number): Promise<Stretch>;
  stop(): void;
}

async function startPass(rateLimits: boolean): Promise<Pass> {
  const { url, credentials } = await seedDatabase(rateLimits ? ACCOUNTS : 1);
  const port = await freePort();
  const servers = Array.from({ length: PROCESSES }, () =>
    spawn(here('../../node_modules/.bin/bun'), [here('../../src/runtimes/bun.ts')], {
      env: {
        ...process.env,
        PORT: String(port),
        REUSE_PORT: 'true',
        DATABASE_URL: url,
        RATE_LIMITS_ENABLED: String(rateLimits),
        LOG_REQUESTS: 'true',
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    }),
  );
  const stop = () => {
    for (const server of servers) server.kill('SIGTERM');
  };
  try {
    return await drive(port, servers, credentials, rateLimits, stop);
  } catch (error) {
    stop();
    throw error;
  }
}

async function drive(
  port: number,
  servers: ReturnType<typeof spawn>[],
  credentials: Credential[],
  rateLimits: boolean,
  stop: () => void,
): Promise<Pass> {
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
  let turn = 0;
  /** The next key of the pool, in turn. */
  const next = () => credentials[turn++ % credentials.length]!;
  const auth = (credential: Credential) => ({ Authorization: `Bearer ${credential.key}`, 'Content-Type': 'application/json' });
  let counter = 0;
  const create = (credential: Credential, idempotencyKey: string) =>
    fetch(`${base}/api/v1/documents`, {
      method: 'POST',
      headers: { ...auth(credential), 'Idempotency-Key': idempotencyKey },
      body: reference,
    });
  /**
   * Everyone's previews together have a ceiling per hour that no number of keys lifts: with the limits on, each
   * preview row stops at its share of nine tenths of it.
   */
  const previewBudget = rateLimits ? Math.floor((GLOBAL_PREVIEW_LIMITS.perHour * 0.9) / CONCURRENCY.length) : Number.POSITIVE_INFINITY;
  const scenarios: Record<string, Scenario> = {
    'GET templates': { keyed: false, send: () => fetch(`${base}/api/v1/templates`) },
    'POST validate': {
      keyed: true,
      send: () => fetch(`${base}/api/v1/documents/validate`, { method: 'POST', headers: auth(next()), body: reference }),
    },
    'POST preview': {
      keyed: true,
      budget: previewBudget,
      send: () => fetch(`${base}/api/v1/documents`, { method: 'POST', headers: auth(next()), body: preview }),
    },
    'POST final (new key)': { keyed: true, send: () => create(next(), `load-${process.pid}-${counter++}`) },
    'POST replay': {
      keyed: true,
      send: () => {
        const credential = next();
        return create(credential, credential.replayKey);
      },
    },
  };
  // The final each account's replays send again, made before the clock starts; the first one's shape is kept for
  // the constant server's rows.
  let finalShape: AnswerShape | undefined;
  for (const credential of credentials.filter((_, index) => index % 2 === 0)) {
    const response = await create(credential, credential.replayKey);
    finalShape ??= {
      headers: [...response.headers].filter(([name]) => name !== 'date' && name !== 'content-length'),
      bytes: (await response.arrayBuffer()).byteLength,
    };
  }

  async function measure(scenario: Scenario, concurrency: number, seconds: number): Promise<Stretch> {
    logLines.length = 0;
    const timed = await sendFor(scenario.send, concurrency, seconds, scenario.budget, (response, body) => {
      if (response.status === 429) {
        throw new Error(`a rate limit was reached, raise LOAD_ACCOUNTS: ${new TextDecoder().decode(body).slice(0, 300)}`);
      }
      if (scenario.keyed && response.headers.has('RateLimit-Remaining') !== rateLimits) {
        throw new Error(`rate limits ${rateLimits ? 'on' : 'off'}, but an answer ${rateLimits ? 'without' : 'with'} RateLimit-Remaining`);
      }
    });
    // The request log lines of this stretch: the server writes each before its answer is sent.
    const finals = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.render_ms !== undefined && entry.status === 201);
    return {
      ...timed,
      finals: {
        count: finals.length,
        duration: finals.reduce((sum, entry) => sum + entry.duration_ms, 0),
        render: finals.reduce((sum, entry) => sum + entry.render_ms, 0),
      },
    };
  }

  return { rateLimits, label: rateLimits ? 'on' : 'off', scenarios, finalShape: finalShape!, measure, stop };
}

/**
 * `send` from `concurrency` loops for `seconds` (at most `budget` requests in all), each answer read whole and given
 * to `check`: the latencies, the time, the answers outside 2xx and the driver's CPU a request.
 */
async function sendFor(
  send: () => Promise<Response>,
  concurrency: number,
  seconds: number,
  budget = Number.POSITIVE_INFINITY,
  check: (response: Response, body: ArrayBuffer) => void = () => {},
): Promise<Omit<Stretch, 'finals'>> {
  const latencies: number[] = [];
  let failures = 0;
  let sent = 0;
  const deadline = performance.now() + seconds * 1000;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline && sent++ < budget) {
        const begin = performance.now();
        const response = await send();
        const body = await response.arrayBuffer();
        latencies.push(performance.now() - begin);
        check(response, body);
        if (response.status >= 300) failures++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { latencies, elapsed, failures, driverMs: (cpu.user + cpu.system) / 1000 / latencies.length };
}

/** A row from its stretches: requests/s over their time together, percentiles over all their latencies. */
function rowOf(
  scenario: string,
  concurrency: number,
  stretches: readonly Stretch[],
): Row & { count: number; driverMs: number; finals: Stretch['finals'] } {
  const latencies = stretches.flatMap((stretch) => stretch.latencies).sort((a, b) => a - b);
  const elapsed = stretches.reduce((sum, stretch) => sum + stretch.elapsed, 0);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))]!;
  const finals = {
    count: stretches.reduce((sum, stretch) => sum + stretch.finals.count, 0),
    duration: stretches.reduce((sum, stretch) => sum + stretch.finals.duration, 0),
    render: stretches.reduce((sum, stretch) => sum + stretch.finals.render, 0),
  };
  return {
    scenario,
    concurrency,
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    failures: stretches.reduce((sum, stretch) => sum + stretch.failures, 0),
    count: latencies.length,
    driverMs: stretches.reduce((sum, stretch) => sum + stretch.driverMs * stretch.latencies.length, 0) / latencies.length,
    finals,
    ...(finals.count ? { outsideRender: (finals.duration - finals.render) / finals.count } : {}),
  };
}

function printRow(label: string, row: ReturnType<typeof rowOf>): void {
  const { finals } = row;
  const outside =
    row.outsideRender === undefined
      ? ''
      : `  server time ${(finals.duration / finals.count).toFixed(2)} ms of which render ${(finals.render / finals.count).toFixed(2)} ms, ${row.outsideRender.toFixed(2)} ms outside it`;
  const bound = row.concurrency === 64 ? `  p99/queueing bound ${(row.p99 / ((row.concurrency * 1000) / row.rps)).toFixed(2)}×` : '';
  console.log(
    `${label.padEnd(4)}${row.scenario.padEnd(22)} c=${String(row.concurrency).padEnd(3)} ${row.rps.toFixed(0).padStart(6)} req/s  p50 ${row.p50.toFixed(2)} ms  p99 ${row.p99.toFixed(2)} ms${bound}  (${row.count} requests${row.failures ? `, ${row.failures} not 2xx` : ''}; driver CPU ${row.driverMs.toFixed(2)} ms each)${outside}`,
  );
}

console.log(
  `Load benchmark: twice ${PROCESSES} Bun server process(es) (limits off, limits on), each sharing one port and one embedded database, ${SECONDS} s per row, driven over loopback from another Bun process.`,
);
// Both servers run from the start and each row is measured with the limits off, then on, at once: the machine's
// other jobs change from one minute to the next, and the comparison must not measure them. A final row, the one the
// limiter's cost is read from, is measured in halves, off on on off, so that a load rising or falling through the row
// weighs on both alike.
const passes = [await startPass(false), await startPass(true)] as const;
const off: Row[] = [];
const on: Row[] = [];
try {
  console.log(
    `\nEach row with the rate limits off, then on (on: ${ACCOUNTS * 2} keys of ${ACCOUNTS} accounts, in turn); finals in halves, off on on off:`,
  );
  for (const name of Object.keys(passes[0].scenarios)) {
    for (const concurrency of CONCURRENCY) {
      const stretches = new Map<Pass, Stretch[]>(passes.map((pass) => [pass, []]));
      const order = name.startsWith('POST final') ? [passes[0], passes[1], passes[1], passes[0]] : passes;
      const seconds = SECONDS / (order.length / passes.length);
      for (const pass of order) stretches.get(pass)!.push(await pass.measure(pass.scenarios[name]!, concurrency, seconds));
      for (const pass of passes) {
        const row = rowOf(name, concurrency, stretches.get(pass)!);
        printRow(pass.label, row);
        (pass.rateLimits ? on : off).push(row);
      }
    }
  }
} finally {
  for (const pass of passes) pass.stop();
}
console.log('\nFinals with the rate limits on against off (throughput on ÷ off; the limiter may cost at most 10%):');
for (const row of on.filter((entry) => entry.scenario.startsWith('POST final'))) {
  const without = off.find((entry) => entry.scenario === row.scenario && entry.concurrency === row.concurrency)!;
  console.log(
    `c=${String(row.concurrency).padEnd(3)} ${row.rps.toFixed(0)} against ${without.rps.toFixed(0)} req/s: ${((100 * row.rps) / without.rps).toFixed(0)}%  ` +
      `outside the render ${row.outsideRender!.toFixed(2)} ms against ${without.outsideRender!.toFixed(2)} ms`,
  );
}

/** The HTTP server's own tail and throughput for a handler of constant time, one row per way of serving. */
async function constantHandlerRows(finalShape: AnswerShape): Promise<void> {
  console.log(
    '\nThe HTTP server alone (test/bench/constant-server.ts: every answer a constant 0.8 ms of CPU, shaped like ' +
      "a final of the limits-on server; paused: as the service; in order: started in the order the requests arrived, one an event-loop turn; node:http: Bun's):",
  );
  for (const [answers, label] of Object.entries(CONSTANT_SERVER_ANSWERS)) {
    const port = await freePort();
    const server = spawn(here('../../node_modules/.bin/bun'), [here('./constant-server.ts')], {
      env: { ...process.env, PORT: String(port), ANSWERS: answers, ANSWER_SHAPE: JSON.stringify(finalShape) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise((resolve) => server.stdout!.once('data', resolve));
      const timed = await sendFor(() => fetch(`http://127.0.0.1:${port}/`), 64, SECONDS);
      const stretch: Stretch = { ...timed, finals: { count: 0, duration: 0, render: 0 } };
      printRow('', rowOf(label, 64, [stretch]));
    } finally {
      server.kill();
    }
  }
}
await constantHandlerRows(passes[1].finalShape);

const failed = [...off.map((row) => ({ ...row, limits: 'off' })), ...on.map((row) => ({ ...row, limits: 'on' }))].filter(
  (row) => row.failures,
);
if (failed.length) {
  console.error(
    `\nNot measured: answers outside 2xx in ${failed.map((row) => `${row.scenario} c=${row.concurrency} (limits ${row.limits}, ${row.failures})`).join(', ')}.`,
  );
  process.exitCode = 1;
}
