import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { readHarfBuzzModule } from '../../src/render/font-files.ts';
import { type HarfBuzzFace, instantiateHarfBuzz } from '../../src/render/text/harfbuzz.ts';
import { corpusFaces, fontPath } from '../fixtures/scripts/corpus.ts';

let faceOf: (name: string) => HarfBuzzFace;

beforeAll(async () => {
  ({ faceOf } = await corpusFaces());
});

const ARABIC = { direction: 'rtl', script: 'Arab', language: 'ar' } as const;
const HINDI = { direction: 'ltr', script: 'Deva', language: 'hi' } as const;

function shapeAll(font: string, text: string, options: Parameters<HarfBuzzFace['shape']>[3]) {
  return faceOf(font).shape(text, 0, text.length, options);
}

describe('the HarfBuzz wrapper', () => {
  it('gives right-to-left text in visual order: the first glyph is the last character', () => {
    const glyphs = shapeAll('NotoSansArabic-Regular.ttf', 'بيت', ARABIC);
    expect(glyphs.map((glyph) => glyph.cluster)).toEqual([2, 1, 0]);
    expect(glyphs.every((glyph) => glyph.xAdvance > 0 && glyph.yAdvance === 0)).toBe(true);
  });

  it('numbers clusters in UTF-16 units of the text, as JavaScript strings index it', () => {
    // U+20B9F (𠮟, a Japanese form of 叱) takes two UTF-16 units.
    const glyphs = shapeAll('NotoSansCJK-Regular.ttf', 'a\u{20b9f}b', { direction: 'ltr', script: 'Hani', language: 'ja' });
    expect(glyphs.map((glyph) => glyph.cluster)).toEqual([0, 1, 3]);
    expect(glyphs[1]!.gid).not.toBe(0);
  });

  it('forms the lam-alef ligature: fewer glyphs than characters, one cluster for both', () => {
    const glyphs = shapeAll('NotoSansArabic-Regular.ttf', 'لا', ARABIC);
    expect(glyphs).toHaveLength(1);
    expect(glyphs[0]!.cluster).toBe(0);
    expect(shapeAll('NotoSansArabic-Regular.ttf', 'السلام', ARABIC).length).toBeLessThan('السلام'.length);
  });

  it('reorders the Devanagari vowel sign ि before the consonant it follows in the text', () => {
    const [ka] = shapeAll('NotoSansDevanagari-Regular.ttf', 'क', HINDI);
    const glyphs = shapeAll('NotoSansDevanagari-Regular.ttf', 'कि', HINDI);
    expect(glyphs).toHaveLength(2);
    expect(glyphs[0]!.gid).not.toBe(ka!.gid);
    expect(glyphs[1]!.gid).toBe(ka!.gid);
    expect(glyphs.map((glyph) => glyph.cluster)).toEqual([0, 0]);
  });

  it('shapes a part of a text with the rest as context: the middle letter of a word takes its medial form', () => {
    const font = 'NotoSansArabic-Regular.ttf';
    const word = 'بيت';
    const [inContext] = faceOf(font).shape(word, 1, 1, ARABIC);
    const [alone] = shapeAll(font, 'ي', ARABIC);
    const inWord = shapeAll(font, word, ARABIC).find((glyph) => glyph.cluster === 1);
    expect(inContext).toEqual(inWord);
    expect(inContext!.gid).not.toBe(alone!.gid);
  });

  it('marks a text that starts with a mark as broken (a dotted circle), not a part that continues a letter', () => {
    const face = faceOf('NotoSansArabic-Regular.ttf');
    const [fatha] = face.shape('بَ', 1, 1, ARABIC);
    const alone = face.shape('َ', 0, 1, ARABIC);
    expect(alone).toHaveLength(2);
    expect(alone.map((glyph) => glyph.gid)).toContain(fatha!.gid);
    expect(alone.map((glyph) => glyph.cluster)).toEqual([0, 0]);
  });

  it.each(['\u8fd4', '\u9aa8'])('chooses the regional form of %s by language: Japanese and Simplified Chinese differ', (character) => {
    const glyph = (language: string) => shapeAll('NotoSansCJK-Regular.ttf', character, { direction: 'ltr', script: 'Hani', language })[0]!;
    expect(glyph('ja').gid).not.toBe(glyph('zh-Hans').gid);
    expect(glyph('zh-Hans').gid).not.toBe(0);
  });

  it('gives integers in font units and the font its units per em', () => {
    const face = faceOf('NotoSansThai-Regular.ttf');
    expect(face.unitsPerEm).toBe(1000);
    const glyphs = face.shape('น้ำ', 0, 3, { direction: 'ltr', script: 'Thai', language: 'th' });
    const numbers = glyphs.flatMap((glyph) => [glyph.xAdvance, glyph.yAdvance, glyph.xOffset, glyph.yOffset]);
    expect(numbers.every(Number.isInteger)).toBe(true);
    expect(glyphs.some((glyph) => glyph.yOffset !== 0 || glyph.xAdvance === 0)).toBe(true);
  });

  it('shapes an empty part to no glyphs, and refuses a part outside the text or a tag that is not ASCII', () => {
    const face = faceOf('NotoSansArabic-Regular.ttf');
    expect(face.shape('بيت', 3, 0, ARABIC)).toEqual([]);
    expect(() => face.shape('بيت', 2, 2, ARABIC)).toThrow(RangeError);
    expect(() => face.shape('بيت', -1, 1, ARABIC)).toThrow(RangeError);
    expect(() => face.shape('بيت', 0, 3, { ...ARABIC, language: 'عربي' })).toThrow(RangeError);
  });

  it('keeps many fonts and many shapings in one instance: its memory grows as needed, results stay the same', async () => {
    const fresh = instantiateHarfBuzz(readHarfBuzzModule());
    const face = fresh.face(readFileSync(fontPath('NotoSansCJK-Regular.ttf')));
    const text = '請於收到發票後三十日內付款。';
    const first = face.shape(text, 0, text.length, { direction: 'ltr', script: 'Hani', language: 'zh-Hant' });
    for (let i = 0; i < 2000; i++) face.shape(text, 0, text.length, { direction: 'ltr', script: 'Hani', language: 'zh-Hant' });
    expect(face.shape(text, 0, text.length, { direction: 'ltr', script: 'Hani', language: 'zh-Hant' })).toEqual(first);
    expect(first).toEqual(shapeAll('NotoSansCJK-Regular.ttf', text, { direction: 'ltr', script: 'Hani', language: 'zh-Hant' }));
  });
});
