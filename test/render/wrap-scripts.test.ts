import { describe, expect, it } from 'vitest';
import type { TextFace } from '../../src/render/fonts.ts';
import { splitsCluster } from '../../src/render/text/line-breaks.ts';
import { isCombiningMark, isDefaultIgnorable } from '../../src/render/text/text.ts';
import { wrapText } from '../../src/render/text/wrap.ts';
import { testFonts } from '../support/app.ts';
import { wrappedTexts } from '../support/wrapped-texts.ts';

/** A face one unit wide per character at size 1; marks and format characters take no room, as in the fonts. */
const monospace = {
  widthOf: (text: string, size: number) =>
    [...text].filter((char) => !isCombiningMark(char.codePointAt(0)!) && !isDefaultIgnorable(char.codePointAt(0)!)).length * size,
} as Pick<TextFace, 'widthOf'> as TextFace;

const width = (line: string) => monospace.widthOf(line, 1);

describe('text without spaces fills each line to the column where it may break', () => {
  it('a long Japanese line: every line full but where 、。「 forbid, nothing past the column', () => {
    const text = '株式会社山田商事の東京本社では、新しい請求書の発行を開始しました。「対象」は全顧客です。';
    const lines = wrappedTexts(text, monospace, 1, 10);
    expect(lines).toEqual(['株式会社山田商事の東', '京本社では、新しい請', '求書の発行を開始しま', 'した。「対象」は全顧', '客です。']);
    expect(wrappedTexts('東京本社では新しい請求書、', monospace, 1, 12)).toEqual(['東京本社では新しい請求', '書、']);
    expect(wrappedTexts('請求書の「株式会社」', monospace, 1, 4)).toEqual(['請求書の', '「株式会', '社」']);
  });

  it('a Japanese value after Latin words continues on the same line', () => {
    expect(wrappedTexts('Invoice 株式会社山田商事', monospace, 1, 10)).toEqual(['Invoice 株式', '会社山田商事']);
  });

  it('Chinese and Korean', () => {
    expect(wrappedTexts('北京市朝阳区建国路88号', monospace, 1, 5)).toEqual(['北京市朝阳', '区建国路', '88号']);
    expect(wrappedTexts('서울특별시 강남구 테헤란로', monospace, 1, 8)).toEqual(['서울특별시', '강남구 테헤란로']);
  });

  it('Thai wraps at word boundaries, spaces between phrases kept, ๆ after a space never starts a line', () => {
    expect(wrappedTexts('บริษัทสยามพาณิชย์จำกัด', monospace, 1, 9)).toEqual(['บริษัทสยาม', 'พาณิชย์จำกัด']);
    expect(wrappedTexts('บริษัทสยามพาณิชย์จำกัด', monospace, 1, 6)).toEqual(['บริษัท', 'สยาม', 'พาณิชย์', 'จำกัด']);
    expect(wrappedTexts('ค่าบริการ รายเดือน', monospace, 1, 40)).toEqual(['ค่าบริการ รายเดือน']);
    expect(wrappedTexts('บริการดี ๆ ราคาถูก', monospace, 1, 7)).toEqual(['บริการ', 'ดี ๆ', 'ราคาถูก']);
  });

  it('a Thai word longer than a line is cut between characters, never inside a cluster', () => {
    const lines = wrappedTexts('กรุงเทพมหานคร', monospace, 1, 3);
    expect(lines.join('')).toBe('กรุงเทพมหานคร');
    for (const [index, line] of lines.entries()) {
      expect(width(line), line).toBeLessThanOrEqual(3);
      if (index > 0) expect(splitsCluster(lines[index - 1]!.codePointAt(lines[index - 1]!.length - 1)!, line.codePointAt(0)!)).toBe(false);
    }
  });
});

describe('the last resort never splits a cluster', () => {
  it.each([
    ['Hindi', 'प्रतिष्ठानविक्रयकर्तासंस्थानक्षत्रिय', 3],
    ['Bengali', 'প্রতিষ্ঠানবিক্রয়কর্তাসংস্থান', 3],
    ['Tamil', 'நிறுவனம்விற்பனையாளர்நிறுவனம்', 4],
    ['Arabic', 'مُؤَسَّسَةُالتِّجَارَةِالعَالَمِيَّةِ', 5],
    ['Persian with ZWNJ', 'می\u200cخواهم\u200cکه\u200cبروم\u200cبه\u200cخانه', 3],
    ['Hebrew with points', 'שָׁלוֹםעֲלֵיכֶםחֲבֵרִים', 4],
  ] as const)('%s', (_, word, column) => {
    // Lines after the first of a right-to-left paragraph carry the mark that keeps its direction (typeset.ts).
    const lines = wrappedTexts(word, monospace, 1, column).map((line) => line.replace(/^\u200F/, ''));
    expect(lines.length).toBeGreaterThan(2);
    expect(lines.join('')).toBe(word);
    for (const [index, line] of lines.entries()) {
      expect(width(line), line).toBeLessThanOrEqual(column);
      expect(isCombiningMark(line.codePointAt(0)!), line).toBe(false);
      if (index > 0) {
        const before = lines[index - 1]!.codePointAt(lines[index - 1]!.length - 1)!;
        expect(splitsCluster(before, line.codePointAt(0)!), `${lines[index - 1]}|${line}`).toBe(false);
        expect([0x094d, 0x09cd, 0x0bcd, 0x200c, 0x200d], lines[index - 1]).not.toContain(before);
      }
    }
  });
});

describe('Latin text wraps as before', () => {
  const { regular } = testFonts();
  it('identifiers break after / - _, soft hyphens draw a hyphen, long words are cut (outputs of the code before CJK and Thai)', () => {
    expect(wrappedTexts('4500012345/ACME-PROCUREMENT-EMEA', monospace, 1, 12)).toEqual(['4500012345/', 'ACME-', 'PROCUREMENT-', 'EMEA']);
    expect(wrappedTexts('Rechnung über Beratungs\u00adleistungen', regular, 10, 150)).toEqual(['Rechnung über Beratungs-', 'leistungen']);
    expect(wrappedTexts('Consulting services for the migration of the billing platform', regular, 10, 120)).toEqual([
      'Consulting services for',
      'the migration of the',
      'billing platform',
    ]);
    expect(wrappedTexts('Supercalifragilisticexpialidocious', regular, 10, 50)).toEqual(['Supercalif', 'ragilisticex', 'pialidocio', 'us']);
  });
});

describe('how a wrapped line ends: at a space, or inside a word (a reader joining the lines needs a space at one only)', () => {
  const { regular } = testFonts();
  const breaks = (...args: Parameters<typeof wrapText>) => wrapText(...args).map((line) => [line.text, line.breakAfter]);
  it('at a space after a line ended at a space or by a line break of the value; nothing after the last line', () => {
    expect(breaks('Friedrichstraße 123\n10117 Berlin\nGermany', regular, 10, 500)).toEqual([
      ['Friedrichstraße 123', 'space'],
      ['10117 Berlin', 'space'],
      ['Germany', undefined],
    ]);
    expect(breaks('Consulting services for the migration of the billing platform', regular, 10, 120)).toEqual([
      ['Consulting services for', 'space'],
      ['the migration of the', 'space'],
      ['billing platform', undefined],
    ]);
    expect(breaks('ค่าบริการ รายเดือน', monospace, 1, 10)).toEqual([
      ['ค่าบริการ', 'space'],
      ['รายเดือน', undefined],
    ]);
  });

  it('inside a word broken across lines: at a soft hyphen, after / - _, anywhere, in CJK and Thai', () => {
    const inWords = (lines: (string | undefined)[][]) =>
      lines.length > 1 && lines.slice(0, -1).every(([, breakAfter]) => breakAfter === 'word');
    expect(inWords(breaks('Beratungs\u00adleistungen', regular, 10, 60))).toBe(true);
    expect(inWords(breaks('4500012345/ACME-PROCUREMENT-EMEA', monospace, 1, 12))).toBe(true);
    expect(inWords(breaks('Supercalifragilisticexpialidocious', regular, 10, 50))).toBe(true);
    expect(inWords(breaks('北京市朝阳区建国路88号', monospace, 1, 5))).toBe(true);
    expect(inWords(breaks('บริษัทสยามพาณิชย์จำกัด', monospace, 1, 6))).toBe(true);
  });
});

describe('a long text without spaces is measured by the line, not by the paragraph', () => {
  it.each([
    ['Japanese', '株式会社山田商事の東京本社では新しい請求書の発行を開始しました'],
    ['Thai', 'บริษัทสยามพาณิชย์จำกัดน้ำดื่มที่ดีกรุงเทพมหานคร'],
    ['Hindi (cut between clusters)', 'प्रतिष्ठानविक्रयकर्तासंस्थानक्षत्रिय'],
  ])('%s: 2,000 characters wrapped at 40 are measured over fewer than 20 times their length', (_, sample) => {
    const text = sample.repeat(Math.ceil(2000 / sample.length)).slice(0, 2000);
    let measured = 0;
    const counting = {
      widthOf: (part: string, size: number) => {
        measured += part.length;
        return monospace.widthOf(part, size);
      },
    } as Pick<TextFace, 'widthOf'> as TextFace;
    const lines = wrappedTexts(text, counting, 1, 40);
    expect(lines.join('')).toBe(text);
    expect(measured).toBeLessThan(20 * text.length);
  });
});
