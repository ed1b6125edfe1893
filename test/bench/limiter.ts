import { join } from 'node:path';
import type { Client, ResultSet, Row } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { createApp } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { type CheckpointThread, startCheckpointThread } from '../../src/db/checkpoints.ts';
import type { SqlClient } from '../../src/db/embedded.ts';
import type { EngineConnection, EngineStatement } from '../../src/db/engine.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import { runtimeEngine } from '../../src/db/runtime-engine.ts';
import * as schema from '../../src/db/schema.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { tempDir } from '../support/processes.ts';
import { seedAccounts } from './accounts.ts';
import { sendFinal } from './finals.ts';

/**
 * `bun test/bench/limiter.ts`: where a final's database time goes, statement by statement, with the rate limits off
 * and on. The service's fetch handler in this process sends FINALS finals with a new Idempotency-Key (the load
 * bench's "POST final (new key)"), with the limits on round 1,200 keys of 600 accounts as `npm run bench:load` does,
 * on an embedded file in WAL mode through a connection that times every statement, BEGIN and COMMIT. Prints
 * microseconds per final for each (its SQL's beginning; a COMMIT includes the checkpoints SQLite makes in it) and the
 * total.
 * The timer itself costs a little per statement: compare the rows and the two runs, not the absolute totals with
 * the load bench's.
 */
const FINALS = Number(process.env.FINALS ?? 3000);
const WARMUP = 300;

type SqlValue = string | number | bigint | null | Uint8Array;
interface Timed {
  count: number;
  ms: number;
}

/**
 * A connection like a server's EmbeddedClient (statements kept prepared, each batch one BEGIN IMMEDIATE … COMMIT, the
 * checkpoints in a thread of their own where the engine allows it), timed.
 */
class TimedClient implements SqlClient {
  readonly connection: EngineConnection;
  readonly times = new Map<string, Timed>();
  readonly #statements = new Map<string, { statement: EngineStatement; columns: string[] }>();
  readonly #checkpoints: CheckpointThread | undefined;

  /** `engine`: the one the service opens its file with in this runtime (runtimeEngine). */
  constructor(path: string, engine: (path: string) => EngineConnection) {
    this.connection = engine(path);
    this.connection.exec('PRAGMA synchronous = NORMAL');
    this.connection.exec('PRAGMA foreign_keys = ON');
    this.#checkpoints = startCheckpointThread(path, this.connection);
  }

  #time<T>(name: string, work: () => T): T {
    const started = performance.now();
    const result = work();
    const timed = this.times.get(name) ?? { count: 0, ms: 0 };
    timed.count++;
    timed.ms += performance.now() - started;
    this.times.set(name, timed);
    return result;
  }

  #run(input: string | { sql: string; args?: SqlValue[] }): ResultSet {
    const { sql, args = [] } = typeof input === 'string' ? { sql: input } : input;
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      const statement = this.connection.prepare(sql);
      const columns = statement.reader ? statement.columns().map((column) => column.name) : [];
      prepared = { statement, columns };
      this.#statements.set(sql, prepared);
    }
    const { statement, columns } = prepared;
    const name = sql.replace(/\s+/g, ' ').trim().slice(0, 100);
    const values = this.#time(name, () => {
      if (statement.reader) return statement.rows(args);
      statement.run(args);
      return [];
    });
    // Rows as drizzle's libSQL driver reads them: by index for the query builder, by name for raw SQL.
    const rows = values.map(
      (row) =>
        Object.assign(Object.fromEntries(columns.map((column, index) => [column, row[index]])), row, {
          length: row.length,
        }) as unknown as Row,
    );
    return { columns, columnTypes: [], rows, rowsAffected: 0, lastInsertRowid: undefined, toJSON: () => ({}) };
  }

  async execute(input: string | { sql: string; args?: SqlValue[] }): Promise<ResultSet> {
    return this.#run(input);
  }

  async batch(statements: (string | { sql: string; args?: SqlValue[] })[]): Promise<ResultSet[]> {
    this.#time('BEGIN IMMEDIATE', () => this.connection.exec('BEGIN IMMEDIATE'));
    const results = statements.map((statement) => this.#run(statement));
    this.#time('COMMIT', () => this.connection.exec('COMMIT'));
    return results;
  }

  async migrate(): Promise<ResultSet[]> {
    return [];
  }

  async close(): Promise<void> {
    await this.#checkpoints?.stop();
    this.connection.close();
  }
}

const fonts = loadFonts(readFontFiles());

async function profile(rateLimits: boolean): Promise<void> {
  const path = join(tempDir('svc-limiter-'), 'svc.db');
  const seeding = await openDatabase(`file:${path}`);
  const keys = await seedAccounts(seeding.db, rateLimits ? 600 : 1, 'limiter');
  seeding.client.close();
  const client = new TimedClient(path, await runtimeEngine());
  const db = drizzle(client as unknown as Client, { schema });
  const fetch = createApp({ db, clock: systemClock, config: loadConfig({}, { logRequests: false, rateLimitsEnabled: rateLimits }), fonts });
  for (let index = 0; index < WARMUP + FINALS; index++) {
    if (index === WARMUP) client.times.clear();
    await sendFinal(fetch, keys[index % keys.length]!, `limiter-${index}`);
  }
  console.log(
    `\nRate limits ${rateLimits ? 'on' : 'off'}: µs per final (statements per final), ${FINALS} finals with a new Idempotency-Key`,
  );
  let total = 0;
  for (const [name, timed] of client.times) {
    total += timed.ms;
    console.log(`${((timed.ms / FINALS) * 1000).toFixed(1).padStart(7)}  ×${(timed.count / FINALS).toFixed(1)}  ${name}`);
  }
  console.log(`${((total / FINALS) * 1000).toFixed(1).padStart(7)}  in all`);
  await client.close();
}

await profile(false);
await profile(true);
