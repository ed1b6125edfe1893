import { isIP } from 'node:net';
import { createApp, type FetchHandler } from '../app.ts';
import { systemClock } from '../clock.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { EmbeddedClient, type SqlClient } from '../db/embedded.ts';
import { DEFAULT_DATABASE_URL, openDatabase } from '../db/libsql.ts';
import { warmUpRenderer } from '../documents/warm-up.ts';
import { checkMailLinkBase, type MailSettings, type MailTransportName, readMailSettings } from '../mail/config.ts';
import { CONSOLE_TRANSPORT_WARNING, createConsoleMailer } from '../mail/console.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createNodeSmtpMailer } from '../mail/smtp-node.ts';
import { readFontFiles } from '../render/font-files.ts';
import { loadFonts } from '../render/fonts.ts';

interface ServerSetup {
  fetch: FetchHandler;
  /** Resolves once every task handed on after its answer (a sign-in mail) has ended: a graceful stop waits for it. */
  tasksSettled(): Promise<unknown>;
  /** The server listens: the embedded file's checkpoints move to a thread of their own (EmbeddedClient). */
  listening(): void;
  /** Closes the database once nothing uses it any more, the last step of a graceful stop before the exit. */
  closeDatabase(): Promise<void>;
  port: number;
  hostname: string;
  /** Several processes may listen on one port (Linux SO_REUSEPORT shares the connections among them). */
  reusePort: boolean;
  /** PUBLIC_BASE_URL, for an answer the runtime makes before the handler is reached. */
  publicBaseUrl: string | undefined;
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 8787;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be 0 to 65535, got "${value}".`);
  return port;
}

const HOSTNAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

function readHost(value: string | undefined): string {
  if (value === undefined || value === '') return '127.0.0.1';
  if (isIP(value) === 0 && (value.length > 253 || !HOSTNAME.test(value))) {
    throw new ConfigError(`HOST must be an IP address or a host name, got "${value}".`);
  }
  return value;
}

/** The schemes the embedded engine and @libsql/client open; anything else would fail deep inside either. */
const DATABASE_SCHEMES = ['file:', 'libsql:', 'https:', 'http:', 'wss:', 'ws:'];

/** The value is not echoed: a libsql:// URL may carry a token in its query. */
function readDatabaseUrl(value: string | undefined): string {
  if (value === undefined || value === '') return DEFAULT_DATABASE_URL;
  if (value === ':memory:') return value;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:/.exec(value)?.[0];
  if (scheme === undefined || !DATABASE_SCHEMES.includes(scheme)) {
    throw new ConfigError(
      `DATABASE_URL must start with one of ${DATABASE_SCHEMES.join(' ')} (or be :memory:), got ${scheme === undefined ? 'no scheme' : `"${scheme}"`}.`,
    );
  }
  return value;
}

function readReusePort(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new ConfigError(`REUSE_PORT must be true or false, got "${value}".`);
}

/**
 * The first line of the innermost cause (drizzle wraps a driver's error in "Failed query: <sql>, params: …"),
 * without the database URL or token, which may hold a secret.
 */
function redacted(error: unknown, secrets: readonly (string | undefined)[]): string {
  let innermost = error;
  while (innermost instanceof Error && innermost.cause !== undefined) innermost = innermost.cause;
  let text = innermost instanceof Error ? innermost.message : String(innermost);
  for (const secret of secrets) if (secret) text = text.split(secret).join('<redacted>');
  return text.split('\n', 1)[0]!;
}

/** What the operator sees when the service cannot start: one line on stderr, exit code 1, no stack. */
function stopWith(message: string): never {
  console.error(`svc: ${message}`);
  process.exit(1);
}

const MAIL_DEFAULT_FLAG = '--mail-default=';

/**
 * `--mail-default=console` (what `npm start` passes): the development transport when the environment
 * configures no mail (neither MAIL_TRANSPORT nor SMTP_HOST). A deployment that starts the entry point without
 * it and without mail settings has no mailer, never the console one.
 */
function readMailDefault(args: readonly string[]): MailTransportName | undefined {
  const flag = args.findLast((arg) => arg.startsWith(MAIL_DEFAULT_FLAG));
  if (flag === undefined) return undefined;
  const value = flag.slice(MAIL_DEFAULT_FLAG.length);
  if (value !== 'console') throw new ConfigError(`${MAIL_DEFAULT_FLAG}console is the only default transport, got "${flag}".`);
  return value;
}

/** The console transport says once at start that it sends nothing; SMTP is nodemailer on Bun and Node. */
function mailerFor(settings: MailSettings | undefined): Mailer | undefined {
  if (settings === undefined) return undefined;
  if (settings.transport === 'smtp') return createNodeSmtpMailer(settings.smtp);
  console.warn(`svc: warning: ${CONSOLE_TRANSPORT_WARNING}`);
  return createConsoleMailer(settings.from);
}

function readSettings(env: Record<string, string | undefined>, args: readonly string[]) {
  const mail = readMailSettings(env, readMailDefault(args));
  const config = loadConfig(env);
  checkMailLinkBase(mail, config.publicBaseUrl);
  return {
    mail,
    config,
    port: readPort(env.PORT),
    hostname: readHost(env.HOST),
    databaseUrl: readDatabaseUrl(env.DATABASE_URL),
    reusePort: readReusePort(env.REUSE_PORT),
  };
}

/**
 * What the Bun and Node entry points share: configuration (the environment, and the command line's
 * --mail-default), the embedded or shared database, the mailer, the handler.
 */
export async function startServer(env: Record<string, string | undefined>, args: readonly string[]): Promise<ServerSetup> {
  let settings: ReturnType<typeof readSettings>;
  try {
    settings = readSettings(env, args);
  } catch (error) {
    if (error instanceof ConfigError) stopWith(`invalid configuration: ${error.message}`);
    throw error;
  }
  const { config, port, hostname, databaseUrl, reusePort, mail } = settings;
  let db: Database;
  let client: SqlClient;
  try {
    ({ db, client } = await openDatabase(databaseUrl, env.DATABASE_AUTH_TOKEN));
  } catch (error) {
    stopWith(`cannot open the database of DATABASE_URL: ${redacted(error, [env.DATABASE_URL, env.DATABASE_AUTH_TOKEN])}`);
  }
  const fonts = loadFonts(readFontFiles());
  // Before the first request, which would otherwise pay for compiling the renderer (documents/warm-up.ts).
  warmUpRenderer(fonts);
  const listenOrigin = `http://${hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname.includes(':') ? `[${hostname}]` : hostname}:${port}`;
  const app = createApp({ db, clock: systemClock, config, fonts, mailer: mailerFor(mail), listenOrigin });
  // The process's own waitUntil: as on Workers, work left after an answer is kept track of, so a stop lets it end.
  const pending = new Set<Promise<unknown>>();
  const waitUntil = (task: Promise<unknown>) => {
    pending.add(task);
    void task.finally(() => pending.delete(task));
  };
  return {
    fetch: (request, connection = {}) => app(request, { ...connection, waitUntil }),
    tasksSettled: () => Promise.allSettled([...pending]),
    listening: () => {
      if (client instanceof EmbeddedClient) client.checkpointInThread();
    },
    closeDatabase: async () => (client instanceof EmbeddedClient ? client.closeWhenThreadEnded() : client.close()),
    port,
    hostname,
    reusePort,
    publicBaseUrl: config.publicBaseUrl,
  };
}

/** A listen that failed (address in use, not an address of this machine): one line, exit code 1. */
export function cannotListen(hostname: string, port: number, error: unknown): never {
  const code = (error as { code?: unknown }).code;
  stopWith(`cannot listen on ${hostname}:${port} (HOST, PORT): ${typeof code === 'string' ? code : redacted(error, [])}`);
}
