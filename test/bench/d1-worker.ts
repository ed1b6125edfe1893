import { createApp, type FetchHandler } from '../../src/app.ts';
import { systemClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { openD1 } from '../../src/db/d1.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { workerFontFiles } from '../../src/runtimes/worker-fonts.ts';
import { timedBatches } from './timed-batches.ts';

/**
 * Only for `npm run bench:batches`: the service's handler inside workerd on a local D1 database, its batches
 * timed where they are sent, and the rows D1 reports read and written (what D1 bills and limits per day).
 * GET /__batches answers what was recorded since the last time it was asked.
 */
interface Env {
  DB: D1Database;
  ASSETS: Fetcher;
  [name: string]: unknown;
}

let assets: Fetcher | undefined;
const fonts = loadFonts(workerFontFiles(() => assets!));
let app: FetchHandler | undefined;
let durations: number[] = [];
let rows = { read: 0, written: 0 };

/** The binding, with the rows each batch read and wrote (D1's meta) added up. */
function countingRows(binding: D1Database): D1Database {
  return new Proxy(binding, {
    get(target, property) {
      const value = Reflect.get(target, property, target);
      if (property !== 'batch') return typeof value === 'function' ? value.bind(target) : value;
      return async (statements: D1PreparedStatement[]) => {
        const results = await target.batch(statements);
        for (const { meta } of results) {
          rows.read += meta.rows_read ?? 0;
          rows.written += meta.rows_written ?? 0;
        }
        return results;
      };
    },
  });
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    assets = env.ASSETS;
    if (new URL(request.url).pathname === '/__batches') {
      const answer = Response.json({ durations, rows });
      durations = [];
      rows = { read: 0, written: 0 };
      return answer;
    }
    app ??= createApp({
      db: timedBatches(openD1(countingRows(env.DB)), (ms) => durations.push(ms)),
      clock: systemClock,
      config: loadConfig(env as unknown as Record<string, string | undefined>),
      fonts,
    });
    // The failed sign-ins of the benchmark come from many networks, so that none is refused for too many.
    return app(request, { clientAddress: request.headers.get('X-Bench-Client') ?? '203.0.113.7' });
  },
};
