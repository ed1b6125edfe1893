import { join } from 'node:path';
import { createApp } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import type { EmbeddedClient, SqlClient } from '../../src/db/embedded.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { accounts, documents } from '../../src/db/schema.ts';
import { newId } from '../../src/ids.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { tempDir } from '../support/processes.ts';
import { seedAccounts } from './accounts.ts';
import { sendFinal } from './finals.ts';

/**
 * `bun test/bench/outside-render.ts`: a final's server time outside the render (issue 19's target 4), in process,
 * without HTTP and the load driver that share the machine with `npm run bench:load`'s server: the service's fetch
 * handler on an embedded file set up as a server's, ROUNDS rounds of FINALS finals with a new Idempotency-Key, the
 * rate limits off then on in each round (on: round 1,200 keys of 600 accounts, as the load bench). REPLAYS=1 sends
 * replays instead: each account's keys send its one final again (made before the warm-up), as the load bench's "POST
 * replay". Each final's server time and render time come from its request log line; the database's part is the time in
 * `db.batch`, the rest is JavaScript (reading and checking the request, the answer). Prints each round and the median
 * of the rounds. PREFILL records (0 unless set) are put in each database first, with random ids and no reference as an
 * earlier version made them, so that a final's inserts land in indexes the size of a deployment's.
 */
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const FINALS = Number(process.env.FINALS ?? 2000);
const PREFILL = Number(process.env.PREFILL ?? 0);
const REPLAYS = process.env.REPLAYS === '1';
const WARMUP = 1000;
const DAY_MS = 86_400_000;
/** Records a statement of the prefill inserts (14 values each, under SQLite's 32,766). */
const PREFILL_CHUNK = 1_000;

const fonts = loadFonts(readFontFiles());

interface Split {
  outside: number;
  database: number;
}

/** PREFILL records of the last 80 days spread over the database's accounts, with random ids and no reference. */
async function prefill(db: Database, client: SqlClient) {
  const accountIds = (await db.select({ id: accounts.id }).from(accounts)).map((row) => row.id);
  const first = Date.now() - 80 * DAY_MS;
  const record = (index: number): typeof documents.$inferInsert => ({
    id: newId('doc'),
    accountId: accountIds[index % accountIds.length]!,
    keyId: 'key_prefill',
    template: 'invoice',
    templateVersion: '1.0.0',
    mode: 'final',
    paper: 'a4',
    locale: 'en',
    source: 'api',
    creditsConsumed: 1,
    sha256: '0'.repeat(64),
    bytes: 18_000,
    createdAt: first + Math.floor((index * 80 * DAY_MS) / PREFILL),
  });
  for (let start = 0; start < PREFILL; start += PREFILL_CHUNK) {
    const count = Math.min(PREFILL_CHUNK, PREFILL - start);
    await db.insert(documents).values(Array.from({ length: count }, (_, offset) => record(start + offset)));
  }
  await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
}

async function finalsWith(rateLimits: boolean) {
  const { db, client } = await openDatabase(`file:${join(tempDir('svc-outside-'), 'svc.db')}`);
  const keys = await seedAccounts(db, rateLimits ? 600 : 1, 'outside');
  if (PREFILL > 0) await prefill(db, client);
  // As a server once it listens: the file's checkpoints in a thread of their own where the engine allows it.
  (client as EmbeddedClient).checkpointInThread();
  let databaseMs = 0;
  const batch = db.batch.bind(db);
  db.batch = (async (...args: Parameters<typeof batch>) => {
    const started = performance.now();
    try {
      return await batch(...args);
    } finally {
      databaseMs += performance.now() - started;
    }
  }) as unknown as typeof db.batch;
  const fetch = createApp({ db, clock: systemClock, config: loadConfig({}, { logRequests: true, rateLimitsEnabled: rateLimits }), fonts });
  // An account's two keys share the final its replays send again.
  const idempotencyKey = (index: number) => (REPLAYS ? `outside-replay-${Math.floor((index % keys.length) / 2)}` : `outside-${index}`);
  if (REPLAYS) for (let index = 0; index < keys.length; index += 2) await sendFinal(fetch, keys[index]!, idempotencyKey(index));
  let sent = 0;
  const send = async (count: number): Promise<Split> => {
    const lines: string[] = [];
    const print = console.log;
    console.log = (line: string) => lines.push(line);
    databaseMs = 0;
    try {
      for (let index = 0; index < count; index++, sent++) {
        await sendFinal(fetch, keys[sent % keys.length]!, idempotencyKey(sent));
      }
    } finally {
      console.log = print;
    }
    const outside = lines.reduce((sum, line) => {
      const { duration_ms: duration, render_ms: render } = JSON.parse(line) as { duration_ms: number; render_ms: number };
      return sum + duration - render;
    }, 0);
    return { outside: outside / count, database: databaseMs / count };
  };
  return { send, close: () => (client as EmbeddedClient).closeWhenThreadEnded() };
}

const off = await finalsWith(false);
const on = await finalsWith(true);
await off.send(WARMUP);
await on.send(WARMUP);
const rounds: { off: Split; on: Split }[] = [];
const show = ({ outside, database }: Split) =>
  `${outside.toFixed(3)} ms (database ${database.toFixed(3)}, the rest ${(outside - database).toFixed(3)})`;
for (let round = 0; round < ROUNDS; round++) {
  const result = { off: await off.send(FINALS), on: await on.send(FINALS) };
  rounds.push(result);
  console.log(`round ${round + 1}: outside the render, limits off ${show(result.off)}; on ${show(result.on)}`);
}
const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const medianOf = (pick: (round: { off: Split; on: Split }) => Split): Split => ({
  outside: median(rounds.map((round) => pick(round).outside)),
  database: median(rounds.map((round) => pick(round).database)),
});
console.log(
  `median of ${ROUNDS} rounds of ${FINALS} ${REPLAYS ? 'replays' : 'finals'}: limits off ${show(medianOf((r) => r.off))}; on ${show(medianOf((r) => r.on))}`,
);
await off.close();
await on.close();
