import fontkit from '@pdf-lib/fontkit';
import { describe, expect, it } from 'vitest';
import { readFontFiles } from '../../src/render/font-files.ts';
import { isCombiningMark, isDefaultIgnorable } from '../../src/render/text/text.ts';
import { testFonts } from '../support/app.ts';

describe('the glyph positioning read from GPOS is what fontkit applies (its GPOS processor as the reference)', () => {
  it.each(['regular', 'bold'] as const)('%s: 3,000 texts over the whole character set measure the same', (weight) => {
    const reference = fontkit.create(readFontFiles()[weight]);
    const face = testFonts()[weight].latin;
    const characters = reference.characterSet.filter((cp) => cp > 0x20 && !isCombiningMark(cp) && !isDefaultIgnorable(cp));
    let seed = 12;
    const pick = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return String.fromCodePoint(characters[seed % characters.length]!);
    };
    let kerned = 0;
    for (let i = 0; i < 3000; i++) {
      const text = Array.from({ length: 6 }, pick).join('');
      const run = reference.layout(text, ['kern', 'mark', 'mkmk']);
      const expected = run.positions.reduce((sum, position) => sum + position.xAdvance, 0);
      const plain = run.glyphs.reduce((sum, glyph) => sum + glyph.advanceWidth, 0);
      if (expected !== plain) kerned++;
      expect(face.widthOf(text, reference.unitsPerEm), text).toBeCloseTo(expected, 6);
    }
    expect(kerned).toBeGreaterThan(0);
  });

  it.each(['regular', 'bold'] as const)(
    '%s: marks stacked on letters are placed and kerned alike; where fontkit fails, the shaper still shapes',
    (weight) => {
      const reference = fontkit.create(readFontFiles()[weight]);
      const face = testFonts()[weight].latin;
      const letters = reference.characterSet.filter((cp) => cp > 0x20 && cp < 0x2000 && !isCombiningMark(cp) && !isDefaultIgnorable(cp));
      const marks = reference.characterSet.filter((cp) => isCombiningMark(cp) && !isDefaultIgnorable(cp));
      let seed = 7;
      const pick = (list: number[]) => {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
        return String.fromCodePoint(list[seed % list.length]!);
      };
      let [compared, failed] = [0, 0];
      for (let i = 0; i < 2000; i++) {
        let text = '';
        for (let j = 0; j < 4; j++) text += pick(letters) + pick(marks).repeat(j % 3) + (j === 3 ? pick(marks) : '');
        const shaped = face.shape(text);
        expect(face.widthOf(text, 1000), text).toBeCloseTo(
          shaped.reduce((sum, glyph) => sum + glyph.advance, 0),
          6,
        );
        let run: ReturnType<typeof reference.layout>;
        try {
          run = reference.layout(text, ['kern', 'mark', 'mkmk']);
        } catch {
          failed++;
          continue;
        }
        compared++;
        const expected = run.glyphs.map((glyph, k) => [
          glyph.id,
          run.positions[k]!.xAdvance,
          run.positions[k]!.xOffset,
          run.positions[k]!.yOffset,
        ]);
        expect(
          shaped.map((glyph) => [glyph.gid, glyph.advance, glyph.dx, glyph.dy]),
          text,
        ).toEqual(expected);
      }
      expect(compared).toBeGreaterThan(1500);
      // fontkit throws on a base without an anchor for the mark's class (a NULL anchor); the shaper leaves the mark where it is.
      expect(failed).toBeGreaterThan(0);
    },
  );

  it('a space never kerns, so a line is as wide as its words and spaces', () => {
    const { regular } = testFonts();
    for (const text of ['AV Ta', 'To Yo', 'L’ “A”']) {
      const parts = text.split(' ');
      const sum = parts.reduce((total, part) => total + regular.widthOf(part, 10), 0) + (parts.length - 1) * regular.widthOf(' ', 10);
      expect(regular.widthOf(text, 10), text).toBeCloseTo(sum, 6);
    }
  });
});
