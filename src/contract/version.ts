/** API versions this service serves (section 9); the last one is the newest. */
const API_VERSIONS = ['2026-10-01'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const NEWEST_API_VERSION: ApiVersion = API_VERSIONS[API_VERSIONS.length - 1]!;

export function isApiVersion(value: string): value is ApiVersion {
  return (API_VERSIONS as readonly string[]).includes(value);
}
