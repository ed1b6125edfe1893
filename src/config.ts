import { LIMITS } from './contract/limits.ts';

/** Operator configuration, read from environment variables only (README lists each with its default). */
export interface AppConfig {
  /** `{base_url}` of the contract, without a trailing slash; the request's origin when unset. */
  readonly publicBaseUrl: string | undefined;
  /** Largest PDF sent as a file, and inside JSON before base64 (section 7: 413 response_too_large). */
  readonly pdfFileLimit: number;
  readonly pdfJsonLimit: number;
  /** How long the commit may take before the answer is 500 commit_status_unknown. */
  readonly commitTimeoutMs: number;
  /** Read the client address from X-Forwarded-For: only behind a proxy that sets it, or anyone could forge it. */
  readonly trustForwardedFor: boolean;
}

export class ConfigError extends Error {}

type Env = Readonly<Record<string, string | undefined>>;

function readBaseUrl(env: Env): string | undefined {
  const value = env.PUBLIC_BASE_URL?.trim();
  if (!value) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`PUBLIC_BASE_URL must be an absolute http(s) URL, got "${value}".`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new ConfigError(`PUBLIC_BASE_URL must start with https:// or http://, got "${value}".`);
  }
  return value.replace(/\/+$/, '');
}

function readBoolean(env: Env, name: string): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}".`);
}

export function loadConfig(env: Env, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    publicBaseUrl: readBaseUrl(env),
    pdfFileLimit: LIMITS.pdfFileBytes,
    pdfJsonLimit: LIMITS.pdfJsonBytes,
    commitTimeoutMs: 10_000,
    trustForwardedFor: readBoolean(env, 'TRUST_X_FORWARDED_FOR'),
    ...overrides,
  };
}
