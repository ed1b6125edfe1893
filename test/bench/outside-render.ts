import { join } from 'node:path';
import Libsql from 'libsql';
import { createApp } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { newId } from '../../src/ids.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { tempDir } from '../support/processes.ts';
import { seedAccounts } from './accounts.ts';
import { sendFinal } from './finals.ts';

/**
 * `bun test/bench/outside-render.ts`: a final's server time outside the render (issue 19's target 4), in process,
 * without HTTP and the load driver that share the machine with `npm run bench:load`'s server: the service's fetch
 * handler on an embedded file set up as a server's, ROUNDS rounds of FINALS finals with a new
 * Idempotency-Key, the rate limits off then on in each round (on: round 1,200 keys of 600 accounts, as the load
 * bench). Each final's server time and render time come from its request log line; the database's part is the time
 * in `db.batch`, the rest is JavaScript (reading and checking the request, the answer). Prints each round and the
 * median of the rounds. PREFILL records (0 unless set) are put in each database first, with random ids and no
 * reference as an earlier version made them, so that a final's inserts land in indexes the size of a deployment's.
 */
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const FINALS = Number(process.env.FINALS ?? 2000);
const PREFILL = Number(process.env.PREFILL ?? 0);
const WARMUP = 1000;
const DAY_MS = 86_400_000;

const fonts = loadFonts(readFontFiles());

interface Split {
  outside: number;
  database: number;
}

/** PREFILL records of the last 80 days spread over the file's accounts, written through a connection of its own. */
function prefill(path: string) {
  const connection = new Libsql(path);
  const accounts = (connection.prepare('SELECT id FROM accounts').all() as { id: string }[]).map((row) => row.id);
  const insert = connection.prepare(
    `INSERT INTO documents (id, account_id, key_id, template, template_version, mode, paper, locale, reference, source,
      credits_consumed, sha256, bytes, created_at) VALUES (?, ?, 'key_prefill', 'invoice', '1.0.0', 'final', 'a4', 'en', NULL, 'api', 1, ?, 18000, ?)`,
  );
  const first = Date.now() - 80 * DAY_MS;
  connection.exec('BEGIN');
  for (let index = 0; index < PREFILL; index++) {
    insert.run([newId('doc'), accounts[index % accounts.length]!, '0'.repeat(64), first + Math.floor((index * 80 * DAY_MS) / PREFILL)]);
  }
  connection.exec('COMMIT');
  connection.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  connection.close();
}

async function finalsWith(rateLimits: boolean) {
  const path = join(tempDir('svc-outside-'), 'svc.db');
  const { db, client } = await openDatabase(`file:${path}`);
  const keys = await seedAccounts(db, rateLimits ? 600 : 1, 'outside');
  if (PREFILL > 0) prefill(path);
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
  let sent = 0;
  const send = async (count: number): Promise<Split> => {
    const lines: string[] = [];
    const print = console.log;
    console.log = (line: string) => lines.push(line);
    databaseMs = 0;
    try {
      for (let index = 0; index < count; index++, sent++) {
        await sendFinal(fetch, keys[sent % keys.length]!, `outside-${sent}`);
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
  return { send, close: () => client.close() };
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
  `median of ${ROUNDS} rounds of ${FINALS} finals: limits off ${show(medianOf((r) => r.off))}; on ${show(medianOf((r) => r.on))}`,
);
off.close();
on.close();
