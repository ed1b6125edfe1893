import { readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { FALLBACK_FACES } from '../../src/render/text/font-coverage.ts';

const fontPath = (file: string) => new URL(`../../fonts/${file}`, import.meta.url);
/** The code points the font's cmap maps to a glyph (fontkit's characterSet also lists U+FFFF, which a format 4
 *  cmap's closing segment maps to glyph 0, the missing glyph). */
const characterSet = (file: string) => {
  const font = fontkit.create(readFileSync(fontPath(file)));
  return new Set(font.characterSet.filter((codePoint) => font.hasGlyphForCodePoint(codePoint)));
};

const expand = (ranges: readonly number[]) => {
  const codePoints: number[] = [];
  for (let i = 0; i < ranges.length; i += 2) {
    for (let codePoint = ranges[i]!; codePoint <= ranges[i + 1]!; codePoint++) codePoints.push(codePoint);
  }
  return codePoints;
};

const hex = (codePoint: number) => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

describe('font-coverage.ts lists what each fallback font file maps (it is written by fonts/cut.py)', () => {
  it.each(FALLBACK_FACES.map((face) => [`${face.file} (${face.family}, ${face.weight})`, face] as const))(
    '%s: the ranges are its cmap, sorted and apart',
    (_, face) => {
      expect(face.file).toMatch(/^[A-Za-z0-9]+-(Regular|Bold)\.ttf$/);
      expect(face.ranges.length % 2).toBe(0);
      for (let i = 0; i < face.ranges.length; i += 2) {
        expect(face.ranges[i]!, `range ${i / 2}`).toBeLessThanOrEqual(face.ranges[i + 1]!);
        if (i > 0) expect(face.ranges[i]!, `range ${i / 2} is after the one before, with a gap`).toBeGreaterThan(face.ranges[i - 1]! + 1);
      }
      expect(expand(face.ranges)).toEqual([...characterSet(face.file)].sort((a, b) => a - b));
    },
  );

  it('each family lists its regular face, then at most its bold one, and the weight is in the file name', () => {
    const families = [...new Set(FALLBACK_FACES.map((face) => face.family))];
    for (const family of families) {
      const faces = FALLBACK_FACES.filter((face) => face.family === family);
      expect(
        faces.map((face) => face.weight),
        family,
      ).toEqual(faces.length === 1 ? ['regular'] : ['regular', 'bold']);
      for (const face of faces) expect(face.file.endsWith(face.weight === 'bold' ? '-Bold.ttf' : '-Regular.ttf'), face.file).toBe(true);
    }
    expect(families).toEqual(expect.arrayContaining(['arabic', 'hebrew', 'devanagari', 'bengali', 'tamil', 'thai', 'cjk', 'symbols']));
  });
});

describe('the characters business text needs are in Noto Sans or a fallback face', () => {
  const covered = new Set([...characterSet('NotoSans-Regular.ttf'), ...FALLBACK_FACES.flatMap((face) => expand(face.ranges))]);
  const missing = (codePoints: number[]) => codePoints.filter((codePoint) => !covered.has(codePoint)).map(hex);
  const span = (first: number, last: number) => Array.from({ length: last - first + 1 }, (_, i) => first + i);

  it('every currency sign U+20A0–U+20C0 (U+20C0 SOM SIGN drawn by fonts/cut.py)', () => {
    expect(missing(span(0x20a0, 0x20c0))).toEqual([]);
  });

  it('Persian and Urdu letters and the Arabic-Indic and Extended Arabic-Indic digits', () => {
    const letters = [0x067e, 0x0686, 0x06af, 0x06a9, 0x06cc, 0x06c1, 0x06d2, 0x0679, 0x0688, 0x0691, 0x06ba, 0x06be];
    expect(missing([...letters, ...span(0x0660, 0x0669), ...span(0x06f0, 0x06f9)])).toEqual([]);
  });

  it('Marathi letters: ळ (U+0933), ऱ (U+0931), ॲ (U+0972), ऍ (U+090D), ऑ (U+0911)', () => {
    expect(missing([0x0933, 0x0931, 0x0972, 0x090d, 0x0911])).toEqual([]);
  });

  it('common symbols: ≤ ≥ ≠ ∕ → • ● ■ ✓ ✔ № ‰ ⅓', () => {
    expect(missing([...'≤≥≠∕→•●■✓✔№‰⅓'].map((character) => character.codePointAt(0)!))).toEqual([]);
  });

  it('the Bold fallback faces map what their Regular faces map', () => {
    for (const bold of FALLBACK_FACES.filter((face) => face.weight === 'bold')) {
      const regular = FALLBACK_FACES.find((face) => face.family === bold.family && face.weight === 'regular')!;
      expect(bold.ranges, bold.family).toEqual(regular.ranges);
    }
  });
});
