import { createApp, type FetchHandler } from '../app.ts';
import { systemClock } from '../clock.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { DEFAULT_DATABASE_URL, openDatabase } from '../db/libsql.ts';
import { readFontFiles } from '../render/font-files.ts';
import { loadFonts } from '../render/fonts.ts';

export interface ServerSetup {
  fetch: FetchHandler;
  port: number;
  hostname: string;
  /** Several processes may listen on one port (Linux SO_REUSEPORT shares the connections among them). */
  reusePort: boolean;
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 8787;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`PORT must be 0 to 65535, got "${value}".`);
  return port;
}

function readReusePort(value: string | undefined): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new ConfigError(`REUSE_PORT must be true or false, got "${value}".`);
}

/** What the Bun and Node entry points share: configuration, the embedded or shared database, the handler. */
export async function startServer(env: Record<string, string | undefined>): Promise<ServerSetup> {
  try {
    const config = loadConfig(env);
    const port = readPort(env.PORT);
    const { db } = await openDatabase(env.DATABASE_URL || DEFAULT_DATABASE_URL, env.DATABASE_AUTH_TOKEN);
    const fonts = loadFonts(readFontFiles());
    const reusePort = readReusePort(env.REUSE_PORT);
    return { fetch: createApp({ db, clock: systemClock, config, fonts }), port, hostname: env.HOST || '127.0.0.1', reusePort };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`svc: invalid configuration: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}
