import { createApp, type FetchHandler } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import { loadConfig, type AppConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import type { RouteSpec } from '../../src/http/route.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts, type FontSet } from '../../src/render/fonts.ts';
import { ROUTES } from '../../src/routes/index.ts';

let fonts: FontSet | undefined;
/** Fonts are parsed once per test file, as once per process in production. */
export function testFonts(): FontSet {
  fonts ??= loadFonts(readFontFiles());
  return fonts;
}

export const BASE = 'http://svc.test';

/** A clock the test moves by hand. */
export class TestClock implements Clock {
  current: number;
  constructor(start = Date.parse('2026-11-02T10:00:00Z')) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface TestApp {
  fetch: FetchHandler;
  db: Database;
  clock: TestClock;
  /** GET/POST helper: a path under BASE, an optional init. */
  call(path: string, init?: RequestInit): Promise<Response>;
}

/** The real handler in-process on a fresh in-memory database, migrated like production. */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    routes?: readonly RouteSpec[];
    config?: Partial<AppConfig>;
    /** What the app sees as its database, for fault injection; the test keeps the real one. */
    wrapDb?: (db: Database) => Database;
  } = {},
): Promise<TestApp> {
  const { db } = await openDatabase(':memory:');
  const clock = new TestClock();
  const config = loadConfig(options.env ?? {}, { logRequests: false, rateLimitsEnabled: false, ...options.config });
  const fetch = createApp({ db: options.wrapDb ? options.wrapDb(db) : db, clock, config, fonts: testFonts() }, options.routes ?? ROUTES);
  return { fetch, db, clock, call: (path, init) => fetch(new Request(`${BASE}${path}`, init)) };
}
