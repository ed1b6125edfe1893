import { ConfigError } from '../config.ts';
import { type Mailbox, parseMailbox } from './address.ts';

/** How the connection to the SMTP server is secured. */
export type SmtpTls = 'starttls' | 'implicit' | 'none';

export interface SmtpSettings {
  readonly host: string;
  readonly port: number;
  readonly tls: SmtpTls;
  readonly auth: { readonly user: string; readonly password: string } | undefined;
  readonly from: Mailbox;
}

/** The mail transport the operator chose; no value at all means the service sends no mail. */
export type MailSettings =
  | { readonly transport: 'smtp'; readonly smtp: SmtpSettings }
  | { readonly transport: 'console'; readonly from: Mailbox | undefined };

export type MailTransportName = MailSettings['transport'];

type Env = Readonly<Record<string, unknown>>;

const TRANSPORTS: readonly MailTransportName[] = ['smtp', 'console'];
const TLS_MODES: readonly SmtpTls[] = ['starttls', 'implicit', 'none'];
const SMTP_VARIABLES = ['SMTP_PORT', 'SMTP_TLS', 'SMTP_USER', 'SMTP_PASSWORD', 'MAIL_FROM'] as const;

/** A setting as text, trimmed; undefined when unset or empty. Workers [vars] may hold numbers (SMTP_PORT = 587). */
function read(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined || value === null) return undefined;
  const text = String(value).trim();
  return text === '' ? undefined : text;
}

const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IP_V6 = /^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/;

function readHost(env: Env): string | undefined {
  const host = read(env, 'SMTP_HOST');
  if (host !== undefined && !(host.length <= 253 && (HOST_NAME.test(host) || IP_V6.test(host)))) {
    throw new ConfigError(`SMTP_HOST must be a host name or an IP address, got "${host}".`);
  }
  return host;
}

/** Where a password sent without TLS never leaves the machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(name) || name === '::1';
}

function readTls(env: Env): SmtpTls {
  const value = read(env, 'SMTP_TLS')?.toLowerCase() ?? 'starttls';
  if (!TLS_MODES.includes(value as SmtpTls)) {
    throw new ConfigError(`SMTP_TLS must be one of ${TLS_MODES.join(', ')}, got "${read(env, 'SMTP_TLS')}".`);
  }
  return value as SmtpTls;
}

/** 465 is the port of implicit TLS (RFC 8314); 587 the submission port, plain then STARTTLS. */
function readPort(env: Env, tls: SmtpTls): number {
  const value = read(env, 'SMTP_PORT');
  if (value === undefined) return tls === 'implicit' ? 465 : 587;
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    throw new ConfigError(`SMTP_PORT must be a whole number from 1 to 65535, got "${value}".`);
  }
  return Number(value);
}

/** The password is never echoed: only the names of the variables appear in an error. */
function readAuth(env: Env, host: string, tls: SmtpTls): SmtpSettings['auth'] {
  const user = read(env, 'SMTP_USER');
  const password = env.SMTP_PASSWORD === undefined || env.SMTP_PASSWORD === '' ? undefined : String(env.SMTP_PASSWORD);
  if (user === undefined && password === undefined) return undefined;
  if (user === undefined)
    throw new ConfigError('SMTP_PASSWORD is set but SMTP_USER is not: set both, or neither for a server without AUTH.');
  if (password === undefined)
    throw new ConfigError('SMTP_USER is set but SMTP_PASSWORD is not: set both, or neither for a server without AUTH.');
  if (tls === 'none' && !isLoopbackHost(host)) {
    throw new ConfigError(
      `SMTP_TLS=none would send SMTP_PASSWORD unencrypted to ${host}: use SMTP_TLS=starttls or implicit, or a relay on this machine (localhost, 127.0.0.1, ::1).`,
    );
  }
  return { user, password };
}

function readFrom(env: Env): Mailbox | undefined {
  const value = read(env, 'MAIL_FROM');
  if (value === undefined) return undefined;
  const mailbox = parseMailbox(value);
  if (!mailbox) throw new ConfigError(`MAIL_FROM must be address@example.com or Name <address@example.com>, got "${value}".`);
  return mailbox;
}

function readTransport(env: Env, host: string | undefined, fallback: MailTransportName | undefined): MailTransportName | undefined {
  const value = read(env, 'MAIL_TRANSPORT')?.toLowerCase();
  if (value === undefined && host !== undefined) return 'smtp';
  if (value === undefined) {
    const stray = SMTP_VARIABLES.find((name) => read(env, name) !== undefined);
    if (stray) throw new ConfigError(`${stray} is set but SMTP_HOST is not: set SMTP_HOST (and MAIL_FROM) to send mail by SMTP.`);
    return fallback;
  }
  if (!TRANSPORTS.includes(value as MailTransportName)) {
    throw new ConfigError(`MAIL_TRANSPORT must be smtp or console, got "${read(env, 'MAIL_TRANSPORT')}".`);
  }
  return value as MailTransportName;
}

/**
 * The mail transport from the environment: MAIL_TRANSPORT, else smtp when SMTP_HOST is set, else `fallback`
 * (the development transport `npm start` asks for), else none. A setting that is half there (SMTP_USER without
 * a host) is an error rather than a service that silently sends nothing.
 */
export function readMailSettings(env: Env, fallback?: MailTransportName): MailSettings | undefined {
  const host = readHost(env);
  const transport = readTransport(env, host, fallback);
  if (transport === undefined) return undefined;
  const from = readFrom(env);
  if (transport === 'console') return { transport, from };
  if (host === undefined) throw new ConfigError('MAIL_TRANSPORT=smtp needs SMTP_HOST, the SMTP server to send through.');
  if (from === undefined) {
    throw new ConfigError('MAIL_TRANSPORT=smtp needs MAIL_FROM, the sender: address@example.com or Name <address@example.com>.');
  }
  const tls = readTls(env);
  return { transport, smtp: { host, port: readPort(env, tls), tls, auth: readAuth(env, host, tls), from } };
}
