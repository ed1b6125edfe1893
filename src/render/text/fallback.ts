import type { FontWeight } from './faces.ts';
import { FALLBACK_FACES, type FallbackFaceInfo } from './font-coverage.ts';

/**
 * Thrown while laying out when a text needs script faces not loaded yet: the renderer loads them and lays the
 * document out again. It happens once per face and process, and the result does not depend on it.
 */
export class FontsNotLoaded extends Error {
  readonly faces: readonly FallbackFaceInfo[];
  constructor(faces: readonly FallbackFaceInfo[]) {
    super(`fonts not loaded: ${faces.map((face) => face.file).join(', ')}`);
    this.faces = faces;
  }
}

/** Whether a face's coverage (flat sorted [first, last, …] ranges) holds a code point: a binary search. */
export function covers(info: FallbackFaceInfo, codePoint: number): boolean {
  const { ranges } = info;
  let [low, high] = [0, ranges.length / 2 - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < ranges[middle * 2]!) high = middle - 1;
    else if (codePoint > ranges[middle * 2 + 1]!) low = middle + 1;
    else return true;
  }
  return false;
}

/**
 * The script faces a weight falls back to, in priority order: a family's face of that weight, or its regular
 * face drawn emboldened when the family has no bold (CJK, symbols).
 */
export interface Fallback {
  readonly info: FallbackFaceInfo;
  readonly emboldened: boolean;
}

export function fallbacksOf(weight: FontWeight): Fallback[] {
  const families = [...new Set(FALLBACK_FACES.map((face) => face.family))];
  return families.flatMap((family): Fallback[] => {
    const faces = FALLBACK_FACES.filter((face) => face.family === family);
    const exact = faces.find((face) => face.weight === weight);
    if (exact) return [{ info: exact, emboldened: false }];
    const regular = faces.find((face) => face.weight === 'regular');
    return regular ? [{ info: regular, emboldened: true }] : [];
  });
}
