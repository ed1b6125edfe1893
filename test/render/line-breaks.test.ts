import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { breakOpportunities, splitsCluster } from '../../src/render/text/line-breaks.ts';

/** The word cut at every place breakOpportunities gives. */
const pieces = (word: string): string[] => {
  const out: string[] = [];
  let last = 0;
  for (const index of breakOpportunities(word)) {
    out.push(word.slice(last, index));
    last = index;
  }
  return [...out, word.slice(last)];
};

const NEVER_START = [...'、。，．：；！？」』）】〕〉》ー・ゝゞッャュョァィゥェォ'];
const NEVER_END = [...'「『（【〔〈《'];

describe('CJK breaks between characters as UAX #14 allows', () => {
  it('Japanese: between kanji and kana, never before 。、」 nor after 「', () => {
    expect(pieces('株式会社「山田商事」です。')).toEqual(['株', '式', '会', '社', '「山', '田', '商', '事」', 'で', 'す。']);
    const sentence = '東京本社では、新しい請求書（電子版）の発行を『来月』から開始します。お問い合わせは経理部まで。';
    const cut = pieces(sentence);
    expect(cut.join('')).toBe(sentence);
    expect(cut.length).toBeGreaterThan(30);
    for (const piece of cut) {
      expect(NEVER_START, piece).not.toContain(piece[0]);
      expect(NEVER_END, piece).not.toContain(piece.at(-1));
    }
  });

  it('Japanese small kana and ー never start a line (CJ resolved as NS, strict)', () => {
    expect(pieces('コーポレーション')).toEqual(['コー', 'ポ', 'レー', 'ショ', 'ン']);
    expect(pieces('きょうはいっぱい')).toEqual(['きょ', 'う', 'は', 'いっ', 'ぱ', 'い']);
  });

  it('Chinese, Simplified and Traditional: between ideographs, numbers kept whole, no break at brackets and commas', () => {
    expect(pieces('北京市朝阳区建国路88号')).toEqual(['北', '京', '市', '朝', '阳', '区', '建', '国', '路', '88', '号']);
    expect(pieces('上海（中国）有限公司，')).toEqual(['上', '海', '（中', '国）', '有', '限', '公', '司，']);
    expect(pieces('臺灣銀行：新臺幣１２３元。')).toEqual(['臺', '灣', '銀', '行：', '新', '臺', '幣', '１', '２', '３', '元。']);
    expect(pieces('价格¥1,000元（含税）')).toEqual(['价', '格', '¥1,000', '元', '（含', '税）']);
  });

  it('Korean: no place next to Hangul (keep-all: Korean breaks at its spaces), a Han neighbour included', () => {
    expect(pieces('주식회사삼성전자')).toEqual(['주식회사삼성전자']);
    expect(pieces('서울특별시,')).toEqual(['서울특별시,']);
    expect(pieces('漢字와')).toEqual(['漢', '字와']);
    expect(pieces('한글'.normalize('NFD'))).toEqual(['한글'.normalize('NFD')]);
  });

  it('Latin letters and digits inside CJK text stay together; CJK next to them may break', () => {
    expect(pieces('ABC株式会社(Japan)')).toEqual(['ABC', '株', '式', '会', '社', '(Japan)']);
    expect(pieces('Tokyo東京2026年')).toEqual(['Tokyo', '東', '京', '2026', '年']);
    expect(pieces('東京都千代田区丸の内1-2-3')).toEqual(['東', '京', '都', '千', '代', '田', '区', '丸', 'の', '内', '1-2-3']);
  });

  it('a ZERO WIDTH SPACE is a break, a WORD JOINER none', () => {
    expect(pieces('東京\u200b大阪')).toEqual(['東', '京\u200b', '大', '阪']);
    expect(pieces('東\u2060京')).toEqual(['東\u2060京']);
    expect(pieces('สยาม\u200bพาณิชย์')).toEqual(['สยาม\u200b', 'พาณิชย์']);
  });

  it('a combining mark or joiner after an ideograph stays with it', () => {
    expect(pieces('東\u20dd京')).toEqual(['東\u20dd', '京']);
    expect(pieces('東\u200d京')).toEqual(['東\u200d京']);
  });
});

describe("Unicode's LineBreakTest: every case next to an ideograph that line-breaks.ts answers in full", () => {
  /** Samples the test takes from blocks outside CJK text, swapped for one of the same class inside it (both W). */
  const SAME_CLASS: Record<number, number> = { 6102: 0x30fb, 8986: 0x4e00, 9001: 0x3008 };
  const isEastAsianSample = (codePoint: number) =>
    (codePoint >= 0x1100 && codePoint <= 0x11ff) ||
    (codePoint >= 0x2e80 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xff00 && codePoint <= 0xffef);
  const isHangul = (codePoint: number) =>
    (codePoint >= 0x1100 && codePoint <= 0x11ff) ||
    (codePoint >= 0x3130 && codePoint <= 0x318f) ||
    (codePoint >= 0xa960 && codePoint <= 0xa97f) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7ff);
  const cases = readFileSync(new URL('line-break-test-cjk.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'));

  it(`${cases.length} cases`, () => {
    expect(cases.length).toBeGreaterThan(700);
    let places = 0;
    for (const line of cases) {
      const tokens = line.split('#')[0]!.trim().split(/\s+/);
      const codePoints: number[] = [];
      const breaks: boolean[] = [];
      for (let i = 1; i < tokens.length; i += 2) {
        const sample = Number.parseInt(tokens[i]!, 16);
        codePoints.push(SAME_CLASS[sample] ?? sample);
        breaks.push(tokens[i + 1] === '÷');
      }
      // Korean is tailored (keep-all): no place next to Hangul, where the default rules have some.
      if (codePoints.some(isHangul)) continue;
      const word = String.fromCodePoint(...codePoints);
      const found = new Set(breakOpportunities(word));
      let index = 0;
      for (let i = 0; i < codePoints.length - 1; i++) {
        index += codePoints[i]! > 0xffff ? 2 : 1;
        if (!isEastAsianSample(codePoints[i]!) && !isEastAsianSample(codePoints[i + 1]!)) continue;
        places++;
        expect(found.has(index), `${line} at ${i + 1}`).toBe(breaks[i]);
      }
    }
    expect(places).toBeGreaterThan(400);
  });
});

describe('Thai breaks between dictionary words', () => {
  it('a company name, an address and an item description', () => {
    expect(pieces('บริษัทสยามพาณิชย์จำกัด')).toEqual(['บริษัท', 'สยาม', 'พาณิชย์', 'จำกัด']);
    expect(pieces('ถนนสุขุมวิทแขวงคลองเตยเขตคลองเตย')).toEqual(['ถนน', 'สุขุมวิท', 'แขวง', 'คลองเตย', 'เขต', 'คลองเตย']);
    expect(pieces('ค่าบริการที่ปรึกษาด้านการตลาด')).toEqual(['ค่า', 'บริการ', 'ที่', 'ปรึกษา', 'ด้าน', 'การ', 'ตลาด']);
    expect(pieces('นายสมชายใจดี')).toEqual(['นาย', 'สมชาย', 'ใจดี']);
  });

  it('ๆ and ฯ end the word before them; a stretch the dictionary lacks stays whole', () => {
    expect(pieces('สมชายใจดีมากๆ')).toEqual(['สมชาย', 'ใจดี', 'มากๆ']);
    expect(pieces('กรุงเทพฯสยาม')).toEqual(['กรุงเทพฯ', 'สยาม']);
    expect(pieces('บริษัทฌฎฏฐญ')).toEqual(['บริษัท', 'ฌฎฏฐญ']);
  });

  it('never before a mark or a following vowel, never after a leading vowel', () => {
    const text = 'สำนักงานใหญ่เลขที่เก้าสิบเก้าถนนเพชรบุรีตัดใหม่แขวงมักกะสันเขตราชเทวีกรุงเทพมหานครโทรศัพท์เคลื่อนที่';
    const cut = pieces(text);
    expect(cut.length).toBeGreaterThan(10);
    for (const index of breakOpportunities(text)) {
      expect(splitsCluster(text.charCodeAt(index - 1), text.charCodeAt(index)), `${text.slice(0, index)}|`).toBe(false);
    }
  });

  it('Thai next to Latin letters and digits stays together, next to CJK it may break', () => {
    expect(pieces('ABCสยาม')).toEqual(['ABCสยาม']);
    expect(pieces('ราคา฿100')).toEqual(['ราคา฿100']);
    expect(pieces('東京สยาม')).toEqual(['東', '京', 'สยาม']);
  });
});

describe('other words have no break opportunity', () => {
  it.each([
    'Procurement',
    '4500012345/ACME-PROCUREMENT-EMEA',
    'Beratungs\u00adleistungen',
    'Ελληνικά',
    'Привет',
    'مرحبا',
    'שָׁלוֹם',
    'नमस्ते',
    'বাংলা',
    'தமிழ்நாடு',
    'Nguyễn',
    '€1,000.00',
  ])('%s', (word) => {
    expect(breakOpportunities(word)).toEqual([]);
  });
});

describe('splitsCluster: what is drawn as one is never cut', () => {
  const cp = (char: string) => char.codePointAt(0)!;
  it.each([
    ['a letter and its accent', 'e', '\u0301', true],
    ['an Arabic letter and its haraka', 'ب', '\u064e', true],
    ['a Hebrew letter and its point', 'ש', '\u05c1', true],
    ['a Devanagari consonant and its vowel sign', 'क', 'ि', true],
    ['a Devanagari virama and the consonant of its conjunct', '\u094d', 'ष', true],
    ['a Bengali virama and its consonant', '\u09cd', 'ত', true],
    ['a Tamil pulli and the next consonant', '\u0bcd', 'க', true],
    ['anything and a ZWNJ', 'ی', '\u200c', true],
    ['a ZWJ and anything', '\u200d', 'ক', true],
    ['a Thai consonant and sara am', 'ก', 'ำ', true],
    ['a Thai leading vowel and its consonant', 'เ', 'ก', true],
    ['two Latin letters', 'a', 'b', false],
    ['two Devanagari syllables', 'ि', 'ष', false],
    ['two Thai consonants', 'ก', 'ข', false],
  ] as const)('%s', (_, before, after, splits) => {
    expect(splitsCluster(cp(before), cp(after))).toBe(splits);
  });
});
