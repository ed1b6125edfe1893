/** Operator configuration, read from environment variables only (README lists each with its default). */
export interface AppConfig {
  /** `{base_url}` of the contract, without a trailing slash; the request's origin when unset. */
  readonly publicBaseUrl: string | undefined;
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

export function loadConfig(env: Env): AppConfig {
  return { publicBaseUrl: readBaseUrl(env) };
}
