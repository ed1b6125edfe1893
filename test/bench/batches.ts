import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../src/app.ts';
import { generateKey, hashKey } from '../../src/auth/key-format.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { freePort, startProcess, tempDir, wrangler, wranglerDevArguments } from '../support/processes.ts';
import { fixtureText } from '../support/requests.ts';
import { timedBatches } from './timed-batches.ts';

/**
 * `npm run bench:batches`: how long each round trip to the database takes, per request type, with rate limits on
 * (production): the service's handler on an embedded database file (in this process, as under Bun or Node with
 * DATABASE_URL=file:…) and inside workerd on a local D1 database (wrangler dev --local, d1-worker.ts). Every
 * round trip of a keyed request is one batch; each is timed where it is sent. Each request type has its own
 * account and key, so that BATCH_RUNS requests (at most 25: a key's previews are 30 an hour) stay within the
 * limits and every answer is the one measured. Prints the median and the largest duration of each batch.
 */
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const RUNS = Math.min(25, Number(process.env.BATCH_RUNS ?? 25));
const WARMUP = 3;
const REFERENCE = fixtureText('reference-invoice.json');
const PREVIEW = JSON.stringify({ ...JSON.parse(REFERENCE), mode: 'preview' });

const TYPES = [
  'GET /api/v1/account',
  'GET /api/v1/documents',
  'GET /api/v1/documents/{id}',
  'POST /api/v1/documents/validate',
  'POST /api/v1/documents, preview',
  'POST /api/v1/documents, final',
  'POST /api/v1/documents, final, new Idempotency-Key',
  'the same Idempotency-Key replayed',
  'unknown key (401)',
] as const;
type RequestType = (typeof TYPES)[number];

const keys = Object.fromEntries(TYPES.map((type) => [type, generateKey()])) as Record<RequestType, string>;
const now = Date.now();
const SEED = TYPES.map((type, index) => {
  const account = `acct_bench${index}`;
  return `INSERT INTO accounts (id, email, email_confirmed, plan, credits_remaining, period_end, created_at)
      VALUES ('${account}', 'bench${index}@example.com', 1, 'pro', 1000000, ${now + 30 * 86_400_000}, ${now});
    INSERT INTO api_keys (id, account_id, name, kind, prefix, hash, scopes, created_at)
      VALUES ('key_bench${index}', '${account}', 'bench', 'full', '${keys[type].slice(0, 13)}', '${hashKey(keys[type])}',
        'documents:create documents:preview documents:read account:read', ${now});`;
}).join('\n');

type Send = (
  path: string,
  init?: { method?: string; body?: string; headers?: Record<string, string> },
  client?: string,
) => Promise<Response>;

/** One request of a type; `n` makes each new Idempotency-Key and each failed sign-in's network its own. */
function requestOf(type: RequestType, n: number, send: Send, documentId: string): Promise<Response> {
  const key = keys[type];
  const as = (headers: Record<string, string> = {}) => ({ Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...headers });
  switch (type) {
    case 'GET /api/v1/account':
      return send('/api/v1/account', { headers: as() });
    case 'GET /api/v1/documents':
      return send('/api/v1/documents', { headers: as() });
    case 'GET /api/v1/documents/{id}':
      return send(`/api/v1/documents/${documentId}`, { headers: as() });
    case 'POST /api/v1/documents/validate':
      return send('/api/v1/documents/validate', { method: 'POST', body: REFERENCE, headers: as() });
    case 'POST /api/v1/documents, preview':
      return send('/api/v1/documents', { method: 'POST', body: PREVIEW, headers: as() });
    case 'POST /api/v1/documents, final':
      return send('/api/v1/documents', { method: 'POST', body: REFERENCE, headers: as() });
    case 'POST /api/v1/documents, final, new Idempotency-Key':
      return send('/api/v1/documents', { method: 'POST', body: REFERENCE, headers: as({ 'Idempotency-Key': `bench-${now}-${n}` }) });
    case 'the same Idempotency-Key replayed':
      return send('/api/v1/documents', { method: 'POST', body: REFERENCE, headers: as({ 'Idempotency-Key': `bench-replay-${now}` }) });
    case 'unknown key (401)':
      return send('/api/v1/account', { headers: { Authorization: `Bearer ${generateKey()}` } }, `198.51.100.${n % 250}`);
  }
}

const quantile = (samples: number[], q: number) =>
  [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * q))]!;

/** What a request's round trips took; on D1 also the rows they read and wrote, as D1 reports them. */
interface Recorded {
  durations: number[];
  rows?: { read: number; written: number };
}

/** Sends each type WARMUP + RUNS times; `batchesOfLast` answers what the last request's batches took. */
async function measure(name: string, send: Send, batchesOfLast: () => Promise<Recorded>): Promise<void> {
  const made = await send('/api/v1/documents', {
    method: 'POST',
    body: REFERENCE,
    headers: { Authorization: `Bearer ${keys['GET /api/v1/documents/{id}']}`, 'Content-Type': 'application/json' },
  });
  const documentId = made.headers.get('Svc-Document-Id')!;
  await batchesOfLast();
  console.log(
    `\n${name}: ${RUNS} requests of each type after ${WARMUP}, one after the other; each round trip's batch, median (largest) in ms`,
  );
  for (const type of TYPES) {
    const byPosition: number[][] = [];
    const rows = { read: 0, written: 0 };
    for (let n = 0; n < WARMUP + RUNS; n++) {
      const response = await requestOf(type, n, send, documentId);
      await response.arrayBuffer();
      const expected = type === 'unknown key (401)' ? 401 : response.status;
      if (response.status !== expected || response.status >= 400 !== (type === 'unknown key (401)')) {
        throw new Error(`${name} ${type}: ${response.status}`);
      }
      const { durations, rows: counted } = await batchesOfLast();
      if (n < WARMUP) continue;
      rows.read += counted?.read ?? 0;
      rows.written += counted?.written ?? 0;
      durations.forEach((ms, position) => {
        byPosition[position] = [...(byPosition[position] ?? []), ms];
      });
    }
    const cells = byPosition.map(
      (samples, position) => `batch ${position + 1}: ${quantile(samples, 0.5).toFixed(2)} (${Math.max(...samples).toFixed(2)})`,
    );
    const perRequest = (total: number) => (total / RUNS).toFixed(1);
    const counts = name.includes('D1') ? `   rows read ${perRequest(rows.read)}, written ${perRequest(rows.written)} a request` : '';
    console.log(`  ${type.padEnd(52)} ${cells.join('   ')}${counts}`);
  }
}

async function embedded(): Promise<void> {
  const url = `file:${join(tempDir('svc-batches-'), 'svc.db')}`;
  const { db, client } = await openDatabase(url);
  for (const statement of SEED.split(';').filter((text) => text.trim())) await client.execute(statement);
  let durations: number[] = [];
  const app = createApp({
    db: timedBatches(db, (ms) => durations.push(ms)),
    clock: systemClock,
    config: loadConfig({}, { logRequests: false }),
    fonts: loadFonts(readFontFiles()),
  });
  await measure(
    'Embedded database file (in process)',
    (path, init, client = '203.0.113.7') => app(new Request(`http://bench.test${path}`, init), { clientAddress: client }),
    async () => {
      const last = durations;
      durations = [];
      return { durations: last };
    },
  );
  client.close();
}

async function workerd(): Promise<void> {
  const persist = tempDir('svc-batches-d1-');
  const config = here('d1-wrangler.toml');
  await wrangler(['d1', 'migrations', 'apply', 'DB', '--local', '--config', config, '--persist-to', persist]);
  await wrangler(['d1', 'execute', 'DB', '--local', '--config', config, '--persist-to', persist, '--command', SEED]);
  const port = await freePort();
  const server = await startProcess(process.execPath, wranglerDevArguments(port, persist, {}, config), {
    port,
    readyPath: '/__batches',
    timeoutMs: 60_000,
  });
  try {
    await measure(
      'Local D1 in workerd (wrangler dev --local)',
      (path, init, client) =>
        fetch(`${server.url}${path}`, { ...init, headers: { ...init?.headers, ...(client ? { 'X-Bench-Client': client } : {}) } }),
      async () => (await (await fetch(`${server.url}/__batches`)).json()) as Recorded,
    );
  } finally {
    await server.stop();
  }
}

await embedded();
await workerd();
