/** Where the HTTP suite in test/api runs: in this process (default) or against a real server (API_TARGET). */
export type TargetKind = 'inprocess' | 'bun' | 'node' | 'worker';

export interface ApiTarget {
  kind: TargetKind;
  /** The server's address, for the real servers. */
  url?: string;
  /** libSQL URL of the database file the server uses, for seeding and checking. */
  databaseUrl?: string;
}

export const TARGET_KINDS: TargetKind[] = ['inprocess', 'bun', 'node', 'worker'];

export function targetKind(): TargetKind {
  const kind = (process.env.API_TARGET ?? 'inprocess') as TargetKind;
  if (!TARGET_KINDS.includes(kind)) throw new Error(`API_TARGET must be one of ${TARGET_KINDS.join(', ')}`);
  return kind;
}

/** The settings the real servers run the suite with: the public base URL the tests expect, no rate limits. */
export const SUITE_SERVER_ENV = {
  PUBLIC_BASE_URL: 'http://svc.test',
  RATE_LIMITS_ENABLED: 'false',
  LOG_REQUESTS: 'false',
};

declare module 'vitest' {
  export interface ProvidedContext {
    apiTarget: ApiTarget;
  }
}
