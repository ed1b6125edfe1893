import { existsSync, readFileSync } from 'node:fs';
import bidiFactory from 'bidi-js';
import { describe, expect, it } from 'vitest';
import { embeddingLevels, firstParagraphLevel } from '../../src/render/text/bidi.ts';

/** Unicode's own conformance data for UAX #9 (Debian's unicode-data 15.0.0; .ci/run installs it). */
const BIDI_CHARACTER_TEST = '/usr/share/unicode/BidiCharacterTest.txt';

interface Case {
  line: number;
  text: string;
  /** 0 left-to-right, 1 right-to-left, 2 from the first strong character. */
  direction: number;
  /** The resolved paragraph level. */
  paragraphLevel: number;
  /** The resolved level of each code point; null where the algorithm removes the character (rule X9). */
  levels: (number | null)[];
}

function readCases(): Case[] {
  return readFileSync(BIDI_CHARACTER_TEST, 'utf8')
    .split('\n')
    .flatMap((row, index) => {
      if (row === '' || row.startsWith('#')) return [];
      const [points, direction, paragraphLevel, levels] = row.split(';');
      return [
        {
          line: index + 1,
          text: String.fromCodePoint(...points!.split(' ').map((hex) => Number.parseInt(hex, 16))),
          direction: Number(direction),
          paragraphLevel: Number(paragraphLevel),
          levels: levels!.split(' ').map((level) => (level === 'x' ? null : Number(level))),
        },
      ];
    });
}

/** Levels per code point from levels per UTF-16 unit. */
function perCodePoint(text: string, levels: Uint8Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < text.length; i += text.codePointAt(i)! > 0xffff ? 2 : 1) out.push(levels[i]!);
  return out;
}

describe('the Unicode Bidirectional Algorithm (bidi-js) against BidiCharacterTest 15.0', () => {
  it('resolves every level of every case as Unicode does; the renderer takes the direction from the text (2)', () => {
    expect(existsSync(BIDI_CHARACTER_TEST), `${BIDI_CHARACTER_TEST} (Debian package unicode-data)`).toBe(true);
    const bidi = bidiFactory();
    const cases = readCases();
    expect(cases.length).toBeGreaterThan(90_000);
    const wrong: number[] = [];
    for (const test of cases) {
      const levels =
        test.direction === 2 ? embeddingLevels(test.text) : bidi.getEmbeddingLevels(test.text, test.direction === 0 ? 'ltr' : 'rtl').levels;
      const actual = perCodePoint(test.text, levels);
      if (test.levels.some((level, index) => level !== null && level !== actual[index])) wrong.push(test.line);
    }
    expect(wrong.slice(0, 20), `${wrong.length} cases differ`).toEqual([]);
  });

  it('takes a paragraph’s level from its first strong character as Unicode does (rules P2–P3), for every case', () => {
    const wrong = readCases()
      .filter((test) => test.direction === 2 && firstParagraphLevel(test.text) !== test.paragraphLevel)
      .map((test) => test.line);
    expect(wrong.slice(0, 20), `${wrong.length} cases differ`).toEqual([]);
  });
});
