export interface FallbackFaceInfo {
  readonly file: string;
  readonly family: string;
  readonly weight: 'regular' | 'bold';
  readonly ranges: readonly number[];
}
export const FALLBACK_FACES: readonly FallbackFaceInfo[] = [];
