import { LIMITS } from './contract/limits.ts';
import { sha256Hex } from './hash.ts';

/** Operator configuration, read from environment variables only (docs/operations.md, Configuration, lists each with its default). */
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
  /** Operator switch: false answers every path under /api/v1/ with 404 not_found. */
  readonly apiEnabled: boolean;
  readonly renderConcurrency: number;
  readonly renderTimeoutMs: number;
  /** One JSON line per request on stdout. */
  readonly logRequests: boolean;
  /** false only for load tests on a private copy: no request is then counted or refused by section 8. */
  readonly rateLimitsEnabled: boolean;
  /**
   * SHA-256 (hex) of OPERATOR_SECRET, the bearer secret of the operator API; the secret itself is kept nowhere.
   * Unset: there is no operator API, and every /operator path answers 404 like any unknown path.
   */
  readonly operatorSecretDigest: string | undefined;
  /** Open sign-up in Settings; false for invite-only deployments, whose accounts come from operators. */
  readonly signUpEnabled: boolean;
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

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (value === 'true' || value === 'false') return value === 'true';
  throw new ConfigError(`${name} must be true or false, got "${env[name]}".`);
}

function readInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = env[name]?.trim();
  if (value === undefined || value === '') return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${env[name]}".`);
  }
  return Number(value);
}

/** Long enough that guessing it is hopeless, and sendable as a bearer token (visible ASCII, no space). */
const OPERATOR_SECRET = /^[\x21-\x7e]{32,}$/;

/** The operator secret's digest. An error names its length and what is wrong, never the value. */
function readOperatorSecret(env: Env): string | undefined {
  const value = env.OPERATOR_SECRET?.trim();
  if (!value) return undefined;
  if (!OPERATOR_SECRET.test(value)) {
    throw new ConfigError(
      `OPERATOR_SECRET must be at least 32 visible ASCII characters without spaces (it has ${value.length} characters); make one with \`openssl rand -base64 32\`.`,
    );
  }
  return sha256Hex(value);
}

export function loadConfig(env: Env, overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    publicBaseUrl: readBaseUrl(env),
    pdfFileLimit: LIMITS.pdfFileBytes,
    pdfJsonLimit: LIMITS.pdfJsonBytes,
    commitTimeoutMs: 10_000,
    trustForwardedFor: readBoolean(env, 'TRUST_X_FORWARDED_FOR', false),
    apiEnabled: readBoolean(env, 'API_ENABLED', true),
    renderConcurrency: readInteger(env, 'RENDER_CONCURRENCY', 8, 1, 1024),
    renderTimeoutMs: readInteger(env, 'RENDER_TIMEOUT_MS', 2_000, 10, 60_000),
    logRequests: readBoolean(env, 'LOG_REQUESTS', true),
    rateLimitsEnabled: readBoolean(env, 'RATE_LIMITS_ENABLED', true),
    operatorSecretDigest: readOperatorSecret(env),
    signUpEnabled: readBoolean(env, 'SIGN_UP_ENABLED', true),
    ...overrides,
  };
}
