import { beforeAll, describe, expect, it } from 'vitest';
import { readFontFiles } from '../../src/render/font-files.ts';
import { loadFonts } from '../../src/render/fonts.ts';
import { PAPER_SIZES } from '../../src/render/layout/document.ts';
import { Flow } from '../../src/render/layout/flow.ts';
import { StructureElement } from '../../src/render/layout/structure.ts';
import { FontsNotLoaded } from '../../src/render/text/fallback.ts';
import { FALLBACK_FACES } from '../../src/render/text/font-coverage.ts';
import { cjkLanguageOf, cjkLanguageOfLine, type SetLine } from '../../src/render/text/typeset.ts';
import { testFonts } from '../support/app.ts';
import { wrappedTexts } from '../support/wrapped-texts.ts';

const fonts = testFonts();
/** Which font draws each run of a set line, left to right: `latin` or the script face's family. */
const facesOf = (line: SetLine) => line.runs.map((run) => ('info' in run.face ? run.face.info.family : 'latin'));
/** What each run shows, left to right, from the text its glyphs carry (a Latin glyph shows its character). */
const textsOf = (line: SetLine) =>
  line.runs.map((run) => run.glyphs.map((glyph) => glyph.text ?? String.fromCodePoint(glyph.codePoint)).join(''));

beforeAll(() => fonts.load(FALLBACK_FACES));

describe('setting a line: fonts by coverage, bidi order, shaping', () => {
  it('draws text the Latin face has alone, left to right, in one Latin run (the path Latin documents always took)', () => {
    const line = fonts.regular.setLine('Łódź Ἀθῆναι Україна € 1,234.50');
    expect(facesOf(line)).toEqual(['latin']);
    expect(line.width).toBeCloseTo(fonts.regular.latin.widthOf('Łódź Ἀθῆναι Україна € 1,234.50', 1000), 6);
  });

  it('chooses each character’s font by coverage, and keeps spaces and digits in the run they are in', () => {
    const line = fonts.regular.setLine('Order 12 東京 ๑ नमस्ते');
    expect(textsOf(line)).toEqual(['Order 12 ', '東京 ', '๑ ', 'नमस्ते']);
    expect(facesOf(line)).toEqual(['latin', 'cjk', 'thai', 'devanagari']);
  });

  it('orders a right-to-left paragraph from the right: its first word is drawn rightmost, digits stay left to right', () => {
    const line = fonts.regular.setLine('שלום 123 עולם');
    expect(textsOf(line).join('')).toBe('םלוע 123 םולש');
    expect(facesOf(line)).toEqual(['hebrew', 'latin', 'latin', 'hebrew']);
  });

  it('keeps a left-to-right paragraph’s order with a right-to-left word inside it, and mirrors nothing there', () => {
    const line = fonts.regular.setLine('Invoice (שלום) paid');
    expect(textsOf(line)).toEqual(['Invoice (', 'םולש', ') paid']);
  });

  it('gives the runs’ order in the text: a right-to-left line’s first run is its rightmost; a left-to-right line’s order is left to right', () => {
    const line = fonts.regular.setLine('רחוב הרצל 25, תל אביב');
    const inTextOrder = line.logicalOrder.map((index) => textsOf(line)[index]);
    expect(inTextOrder).toEqual([' לצרה בוחר', '25', ', ', 'ביבא לת']);
    expect(line.logicalOrder.map((index) => facesOf(line)[index])).toEqual(['hebrew', 'latin', 'latin', 'hebrew']);
    expect(fonts.regular.setLine('תודה!').logicalOrder).toEqual([1, 0]);
    expect(fonts.regular.setLine('Order 12 東京 ๑ नमस्ते').logicalOrder).toEqual([0, 1, 2, 3]);
    expect(fonts.regular.setLine('Invoice 12').logicalOrder).toEqual([0]);
  });

  it('shows a space at either end of a script face’s right-to-left run with the glyph beside it, which pdf.js keeps', () => {
    const [, , , hebrew] = fonts.regular.setLine('רחוב הרצל 25, תל אביב').runs;
    const shown = hebrew!.glyphs.map((glyph) => glyph.text);
    expect(shown.slice(0, 2)).toEqual(['', ' ל']);
    expect(shown.join('')).toBe(' לצרה בוחר');
    // A left-to-right space after a right-to-left word keeps its glyph's text: pdf.js puts it back itself.
    const [, , space] = fonts.regular.setLine('Cohen כהן Tel').runs;
    expect(space!.glyphs.map((glyph) => glyph.text ?? String.fromCodePoint(glyph.codePoint))).toEqual([' ']);
  });

  it('shows the spaces and punctuation of a right-to-left Latin run in logical order from one glyph, and keeps the drawing order for /ActualText', () => {
    const [, comma] = fonts.regular.setLine('רחוב הרצל 25, תל אביב').runs;
    expect(comma!.glyphs.map((glyph) => String.fromCodePoint(glyph.codePoint))).toEqual([' ', ',']);
    expect(comma!.glyphs.map((glyph) => glyph.text)).toEqual(['', ', ']);
    expect(comma!.drawnText).toBe(' ,');
    expect(fonts.regular.setLine('Order 12, paid').runs[0]!.drawnText).toBeUndefined();
  });

  it('mirrors brackets drawn right to left by the Latin face; each still shows the bracket sent, for copying', () => {
    const line = fonts.regular.setLine('שלום (עולם)');
    const drawn = line.runs.flatMap((run) => run.glyphs.map((glyph) => String.fromCodePoint(glyph.codePoint)));
    expect(drawn.join('')).toBe('(םלוע) םולש');
    expect(textsOf(line).join('')).toBe(')םלוע( םולש');
  });

  it('a line that starts with the right-to-left mark is a right-to-left paragraph, and the mark draws nothing', () => {
    const plain = fonts.regular.setLine('ACME Ltd شركة');
    const marked = fonts.regular.setLine('\u200FACME Ltd شركة');
    expect(facesOf(plain)).toEqual(['latin', 'arabic']);
    expect(facesOf(marked)[0]).toBe('arabic');
    // Visual order: the Arabic word leftmost (its glyphs, right to left, carry its letters in reverse), then the Latin.
    expect(textsOf(marked).join('')).toBe('ةكرش ACME Ltd');
    expect(marked.width).toBeCloseTo(plain.width, 6);
  });

  it('draws no bidi mark: a LEFT-TO-RIGHT MARK inside right-to-left text is no run of its own (it drew a gap)', () => {
    const plain = fonts.regular.setLine('שלום עולם 12');
    for (const mark of ['\u200E', '\u200F', '\u061C']) {
      const marked = fonts.regular.setLine(`שלום ${mark}עולם 12`);
      expect(facesOf(marked), mark).toEqual(facesOf(plain));
      expect(marked.width, mark).toBeCloseTo(plain.width, 6);
    }
  });

  it('shapes Arabic: joined letters and the lam-alef ligature give fewer glyphs than characters, each keeping its text', () => {
    const line = fonts.regular.setLine('الأمل');
    const glyphs = line.runs.flatMap((run) => run.glyphs);
    expect(glyphs.length).toBeLessThan([...'الأمل'].length);
    // Drawn left to right, the glyphs show the text in visual order: the ligature its two letters reversed.
    expect([...glyphs.map((glyph) => glyph.text).join('')].reverse().join('')).toBe('الأمل');
  });

  it('draws bold CJK and symbols, which have no bold face, with the regular face emboldened; bold Arabic with its bold face', () => {
    expect(fonts.bold.setLine('株式会社').runs.map((run) => ['info' in run.face ? run.face.info.file : '', run.emboldened])).toEqual([
      ['NotoSansCJK-Regular.ttf', true],
    ]);
    expect(fonts.bold.setLine('شركة').runs.map((run) => ['info' in run.face ? run.face.info.file : '', run.emboldened])).toEqual([
      ['NotoSansArabic-Bold.ttf', false],
    ]);
  });

  it('asks for a script face not loaded yet instead of drawing without it', () => {
    const fresh = loadFonts(readFontFiles());
    expect(() => fresh.regular.setLine('שלום')).toThrow(FontsNotLoaded);
  });
});

describe('the regional forms of Han characters follow the value', () => {
  it('kana makes it Japanese, Hangul Korean, Han alone the font’s Simplified Chinese forms', () => {
    expect(cjkLanguageOf('株式会社やまだ')).toBe('ja');
    expect(cjkLanguageOf('서울 漢字')).toBe('ko');
    expect(cjkLanguageOf('北京市朝阳区')).toBeUndefined();
  });

  it('a drawn line without kana or Hangul takes the forms of the value it is part of', () => {
    const values = ['北京市朝阳区建国路88号', '東京都渋谷区の本社\n東京都渋谷区渋谷二丁目21番1号', '서울 漢字'];
    expect(cjkLanguageOfLine('東京都渋谷区渋谷二丁目21番1号', values)).toBe('ja');
    expect(cjkLanguageOfLine('\u200F東京都渋谷区渋谷二丁', values)).toBe('ja');
    // A line drawn with the space after it where the value goes on after a line break (a `space` break).
    expect(cjkLanguageOfLine('東京都渋谷区渋谷二丁目21番1号 ', ['東京都渋谷区渋谷二丁目21番1号\n本社の'])).toBe('ja');
    expect(cjkLanguageOfLine('漢字', values)).toBe('ko');
    expect(cjkLanguageOfLine('北京市朝阳区', values)).toBeUndefined();
    expect(cjkLanguageOfLine('骨の', [])).toBe('ja');
    expect(cjkLanguageOfLine('Invoice 7', values)).toBeUndefined();
  });

  it('draws 骨 with another glyph in a Japanese line than in a Chinese one', () => {
    const glyph = (text: string) => fonts.regular.setLine(text).runs[0]!.glyphs[0]!.gid;
    expect(glyph('骨の')).not.toBe(glyph('骨头'));
  });
});

describe('the lines a font set keeps', () => {
  it('never give one text for another: `ja 東京` set without a language is not `東京` in Japanese forms', () => {
    const sample = '東京都ひかり';
    const other = `ja ${sample}`;
    // Twice each: a line is kept the second time it comes.
    for (let time = 0; time < 2; time++) fonts.regular.setLine(other);
    expect(textsOf(fonts.regular.setLine(sample, 'ja')).join('')).toBe(sample);
    for (let time = 0; time < 2; time++) fonts.regular.setLine(sample, 'ja');
    expect(textsOf(fonts.regular.setLine(other)).join('')).toBe(other);
  });
});

describe('wrapping a right-to-left paragraph', () => {
  it('keeps the paragraph’s direction on every line: later lines start with the right-to-left mark', () => {
    const paragraph = 'شركة الأمل ACME Trading Company Limited للتجارة';
    const lines = wrappedTexts(paragraph, fonts.regular, 9, 90);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]!.startsWith('\u200F')).toBe(false);
    for (const line of lines.slice(1)) expect(line.startsWith('\u200F'), line).toBe(true);
    expect(wrappedTexts('ACME Trading Company Limited and partners', fonts.regular, 9, 90).some((line) => line.startsWith('\u200F'))).toBe(
      false,
    );
  });
});

describe('wrapping a left-to-right paragraph with right-to-left words', () => {
  it('keeps left to right on every line, even one that starts with a right-to-left word', () => {
    const lines = wrappedTexts('Delivery to שלום עולם, 12 boxes', fonts.regular, 9, 70);
    const second = lines.findIndex((line) => line.includes('עולם'));
    expect(second).toBeGreaterThan(0);
    expect(lines[second]!.startsWith('\u200E')).toBe(true);
    // Left to right, as the paragraph: the right-to-left stretch (its word, comma and number, rule N1) first, then
    // `boxes`; set as a paragraph of its own, the line would be right to left, `boxes` leftmost.
    const runs = textsOf(fonts.regular.setLine(lines[second]!));
    expect(runs[0]).toBe('12');
    expect(runs.at(-1)).toMatch(/boxes$/);
  });
});

describe('emoji', () => {
  it('draws a sequence the font has as one glyph: skin tone, ZWJ family, flag, keycap, emoji presentation', () => {
    for (const sequence of ['👍🏽', '👨\u200d👩\u200d👧', '🇩🇪', '#\ufe0f\u20e3', '❤\ufe0f']) {
      const line = fonts.regular.setLine(`a ${sequence} b`);
      expect(facesOf(line), sequence).toEqual(['latin', 'emoji', 'latin']);
      const drawn = line.runs[1]!.glyphs.filter((glyph) => glyph.advance > 0);
      expect(drawn, sequence).toHaveLength(1);
      // The spaces around it stay in the Latin face, at its width, not the emoji face's.
      expect(line.runs[2]!.glyphs[0]!.advance).toBe(line.runs[0]!.glyphs.at(-1)!.advance);
    }
  });

  it('keeps a symbol the symbol faces draw in their face without VS16, and gives it the emoji form with it', () => {
    expect(facesOf(fonts.regular.setLine('a ❤ b'))).toEqual(['latin', 'symbols2', 'latin']);
    expect(facesOf(fonts.regular.setLine('a ❤\ufe0f b'))).toEqual(['latin', 'emoji', 'latin']);
  });
});

describe('marks and text that cannot be broken', () => {
  it('draws a mark its letter’s font lacks with a font that has it, rather than refusing it', () => {
    for (const text of ['a\u093E', 'abc \u064E', 'x\u05B4', '中\u093E']) {
      expect(fonts.undrawable(text), text).toEqual([]);
      const glyphs = fonts.regular.setLine(text).runs.flatMap((run) => run.glyphs);
      expect(
        glyphs.every((glyph) => glyph.gid !== 0),
        text,
      ).toBe(true);
    }
  });

  it('cuts a word that is one cluster from end to end rather than letting it run past the column', () => {
    const lines = wrappedTexts('เ'.repeat(300), fonts.regular, 9, 200);
    expect(lines.join('')).toBe('เ'.repeat(300));
    for (const line of lines) expect(fonts.regular.widthOf(line, 9), line).toBeLessThanOrEqual(200);
  });
});

describe('where a paragraph starts in its box', () => {
  const style = { weight: 'regular', size: 9, color: [0, 0, 0] } as const;
  const linesOf = (text: string) => {
    const flow = new Flow(PAPER_SIZES.a4, fonts, { top: 50, right: 50, bottom: 64, left: 50 });
    flow.paragraph(text, style, new StructureElement('P'), 150);
    return flow.page.ops.flatMap((op) => (op.kind === 'text' ? [op] : []));
  };

  it('a right-to-left paragraph: every line ends at the box’s right edge, where the reader starts', () => {
    const lines = linesOf('شركة الأفق للحلول التقنية ذ.م.م، شارع الشيخ زايد، برج الأفق، الطابق ١٤، دبي');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line.x + fonts.regular.widthOf(line.text, 9), line.text).toBeCloseTo(200, 6);
  });

  it('a left-to-right paragraph, with a right-to-left word or not, starts at the left edge', () => {
    for (const line of linesOf('Delivery to שלום עולם, 12 boxes of printer paper and toner')) expect(line.x, line.text).toBe(50);
  });
});
