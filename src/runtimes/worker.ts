import { createApp, type FetchHandler } from '../app.ts';
import { systemClock } from '../clock.ts';
import { type AppConfig, ConfigError, loadConfig } from '../config.ts';
import { ApiError } from '../contract/api-error.ts';
import { HEADERS } from '../contract/headers.ts';
import { openD1 } from '../db/d1.ts';
import { purgeExpired } from '../documents/retention.ts';
import { warmUpRenderer } from '../documents/warm-up.ts';
import { log } from '../log.ts';
import { checkMailLinkBase, readMailSettings } from '../mail/config.ts';
import { CONSOLE_TRANSPORT_WARNING, createConsoleMailer } from '../mail/console.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createWorkerSmtpMailer } from '../mail/smtp-worker.ts';
import { loadFonts } from '../render/fonts.ts';
import { answerWithoutHandler } from './answer.ts';
import { workerFontFiles } from './worker-fonts.ts';

interface Env {
  DB: D1Database;
  /** fonts/ as static assets (wrangler.toml [assets]): the script faces. */
  ASSETS: Fetcher;
  [name: string]: unknown;
}

/**
 * Parsed, and the renderer warmed up, when the isolate starts, where Workers allow far more CPU time than in a
 * request (400 ms), so that no request, the first included, pays for it against the free plan's CPU limit per
 * request.
 */
let assets: Fetcher | undefined;
const fonts = loadFonts(
  workerFontFiles(() => {
    if (!assets) throw new Error('the ASSETS binding is not known before the first request');
    return assets;
  }),
);
warmUpRenderer(fonts);
let app: FetchHandler | undefined;

const databaseOf = (env: Env) => openD1(env.DB);

/**
 * SMTP through worker-mailer and connect() (nodemailer is Node's and is never imported here, so never bundled);
 * the console transport only when MAIL_TRANSPORT=console says so (`npm run dev:worker`), with its warning once
 * per isolate.
 */
function mailerFor(env: Env, config: AppConfig): Mailer | undefined {
  const settings = readMailSettings(env);
  checkMailLinkBase(settings, config.publicBaseUrl);
  if (settings === undefined) return undefined;
  if (settings.transport === 'smtp') return createWorkerSmtpMailer(settings.smtp);
  console.warn(`svc: warning: ${CONSOLE_TRANSPORT_WARNING}`);
  return createConsoleMailer(settings.from);
}

function appFor(env: Env): FetchHandler {
  assets = env.ASSETS;
  if (app) return app;
  const config = loadConfig(env as unknown as Record<string, string | undefined>);
  app = createApp({ db: databaseOf(env), clock: systemClock, config, fonts, mailer: mailerFor(env, config) });
  return app;
}

/**
 * A Worker cannot refuse to start: with an invalid setting every request is answered 500 internal_error (the
 * contract's JSON, never Cloudflare's error page) and the log names the setting in the one line Bun and Node print.
 */
function misconfigured(request: Request, error: ConfigError): Response {
  console.error(`svc: invalid configuration: ${error.message}`);
  return answerWithoutHandler(new ApiError('internal_error'), new URL(request.url).origin);
}

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    let handler: FetchHandler;
    try {
      handler = appFor(env);
    } catch (error) {
      if (error instanceof ConfigError) return misconfigured(request, error);
      throw error;
    }
    return handler(request, {
      clientAddress: request.headers.get(HEADERS.cloudflareClientAddress) ?? undefined,
      waitUntil: (task) => ctx.waitUntil(task),
    });
  },
  /** The daily retention purge (wrangler.toml [triggers]). */
  async scheduled(_controller: ScheduledController, env: Env): Promise<void> {
    log('info', 'purge', { deleted: await purgeExpired(databaseOf(env), Date.now()) });
  },
} satisfies ExportedHandler<Env>;
