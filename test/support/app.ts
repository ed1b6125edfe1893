import { createClient } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { inject } from 'vitest';
import { type Connection, createApp, type FetchHandler } from '../../src/app.ts';
import type { Clock } from '../../src/clock.ts';
import { type AppConfig, loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/libsql.ts';
import * as schema from '../../src/db/schema.ts';
import type { RouteSpec } from '../../src/http/route.ts';
import type { Mailer } from '../../src/mail/mailer.ts';
import { readFontFiles } from '../../src/render/font-files.ts';
import { type FontSet, loadFonts } from '../../src/render/fonts.ts';
import { ROUTES } from '../../src/routes/index.ts';
import { SUITE_SERVER_ENV } from './target.ts';

export const BASE = SUITE_SERVER_ENV.PUBLIC_BASE_URL;

let fonts: FontSet | undefined;
/** Fonts are parsed once per test file, as once per process in production. */
export function testFonts(): FontSet {
  fonts ??= loadFonts(readFontFiles());
  return fonts;
}

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

/** A real server's clock is the wall clock: a test that moves time belongs in test/inprocess. */
class WallClock extends TestClock {
  override now(): number {
    return Date.now();
  }
  override advance(): void {
    throw new Error('a real server cannot be moved in time: put this test in test/inprocess');
  }
}

export interface TestApp {
  fetch: FetchHandler;
  db: Database;
  clock: TestClock;
  /** A request to a path under BASE, with an optional init. */
  call(path: string, init?: RequestInit): Promise<Response>;
}

interface TestAppOptions {
  env?: Record<string, string>;
  routes?: readonly RouteSpec[];
  config?: Partial<AppConfig>;
  /** What the app sees as its database, for fault injection; the test keeps the real one. */
  wrapDb?: (db: Database) => Database;
  /** How the app sends mail (Settings' sign-in links); none by default, as a server without SMTP configured. */
  mailer?: Mailer;
  /**
   * true (the default): each answer waits for the work the app left running after it (the sign-in mail, handed to
   * the connection's waitUntil as on the Worker), so that a test reads the inbox right after. false: the answer
   * comes as on Bun and Node, where the app lets that work run by itself.
   */
  awaitBackgroundTasks?: boolean;
  /** The fonts the renderer uses; the bundled ones, loaded once for every test file, by default. */
  fonts?: FontSet;
}

/**
 * The service under test. In-process (the default): the real handler on a fresh in-memory database, migrated
 * like production, with a test clock. With API_TARGET=bun|node|worker: the real server started once for the
 * run by test/support/global-setup.ts, reached over HTTP, with this process holding the same database file so
 * that tests can seed accounts and check what was stored.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const target = inject('apiTarget');
  if (target.kind === 'inprocess') return inProcessApp(options);
  if (Object.keys(options).length)
    throw new Error(`a real server cannot take ${Object.keys(options).join(', ')}: put this test in test/inprocess`);
  return remoteApp(target.url!, target.databaseUrl!);
}

async function inProcessApp(options: TestAppOptions): Promise<TestApp> {
  const { db } = await openDatabase(':memory:');
  const clock = new TestClock();
  const config = loadConfig(options.env ?? {}, { logRequests: false, rateLimitsEnabled: false, ...options.config });
  // The address a real server would have been started on: where sign-in links point without PUBLIC_BASE_URL.
  const listenOrigin = new URL(BASE).origin;
  const deps = { db: options.wrapDb ? options.wrapDb(db) : db, clock, config, fonts: options.fonts ?? testFonts(), listenOrigin };
  const handler = createApp(options.mailer ? { ...deps, mailer: options.mailer } : deps, options.routes ?? ROUTES);
  const fetch: FetchHandler =
    options.awaitBackgroundTasks === false
      ? handler
      : async (request, connection = {}) => {
          if (connection.waitUntil) return handler(request, connection);
          const tasks: Promise<unknown>[] = [];
          const response = await handler(request, { ...connection, waitUntil: (task) => tasks.push(task) });
          await Promise.all(tasks);
          return response;
        };
  return { fetch, db, clock, call: (path, init) => fetch(new Request(`${BASE}${path}`, init)) };
}

let remoteDb: Database | undefined;

async function remoteApp(serverUrl: string, databaseUrl: string): Promise<TestApp> {
  remoteDb ??= drizzle(createClient({ url: databaseUrl }), { schema });
  const fetch: FetchHandler = async (request: Request, _connection?: Connection) => {
    const url = new URL(request.url);
    return globalThis.fetch(`${serverUrl}${url.pathname}${url.search}`, {
      method: request.method,
      headers: request.headers,
      ...(request.body ? { body: request.body, duplex: 'half' } : {}),
      redirect: 'manual',
    } as RequestInit);
  };
  return { fetch, db: remoteDb, clock: new WallClock(), call: (path, init) => fetch(new Request(`${BASE}${path}`, init)) };
}

type Method = (...args: never[]) => unknown;
type Batch = (queries: unknown[]) => Promise<unknown>;

/**
 * The database with some of its methods replaced, for fault injection: each replacement is made from the real
 * method (bound), which it may call. Everything else is the database itself.
 */
export function interceptDb(
  db: Database,
  replacements: {
    batch?: (real: Batch) => Batch;
    insert?: (real: Method) => Method;
    select?: (real: Method) => Method;
    run?: (real: Method) => Method;
  },
): Database {
  return new Proxy(db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      const real = typeof value === 'function' ? value.bind(target) : value;
      const replace = (replacements as Record<PropertyKey, ((real: never) => unknown) | undefined>)[property];
      return replace ? replace(real as never) : real;
    },
  }) as Database;
}

/** The SQL and parameters of a batch item (a drizzle query or a bound statement); none for anything else. */
function queryOf(query: unknown): { sql: string; params: unknown[] } {
  const prepared = (query as { _prepare?: () => { getQuery(): { sql: string; params: unknown[] } } } | undefined)?._prepare?.();
  return prepared?.getQuery() ?? { sql: '', params: [] };
}

/** Whether a batch is the commit of a document (its first statement records the document). */
export function isCommitBatch(queries: unknown[]): boolean {
  return queryOf(queries[0]).sql.includes('INSERT INTO "documents"');
}

/** Whether a batch counts in rate_limit_windows a bucket whose name starts with `prefix` (`replay:`). */
export function countsInWindows(queries: unknown[], prefix: string): boolean {
  return queries.some((query) => {
    const { sql, params } = queryOf(query);
    return /^insert into "rate_limit_windows"/i.test(sql) && params.some((param) => typeof param === 'string' && param.startsWith(prefix));
  });
}

/** The database with the rate-limit counters out of reach, as a limiter that cannot be reached. */
export function withLimiterDown(db: Database): Database {
  return interceptDb(db, {
    insert: (real) =>
      ((table: unknown) => {
        if (table === schema.rateLimitWindows) throw new Error('limiter storage down');
        return (real as (table: unknown) => unknown)(table);
      }) as never,
  });
}
