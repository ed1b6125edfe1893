import { SCRIPTS } from '../../contract/scripts.ts';
import { LINE_BREAK_CLASSES, LINE_BREAK_RANGES } from './line-break-classes.ts';
import { syllableBreaks } from './syllable-breaks.ts';
import { isCombiningMark } from './text.ts';
import { THAI_ALPHABET, THAI_WORDS } from './thai-words.ts';

/**
 * A line break class of UAX #14 as this file tells them apart. Every class the tables do not list is AL: the
 * letters of the alphabets (HL, AI and XX too), which break only at spaces and the places wrap.ts knows.
 */
type LineBreakClass = (typeof LINE_BREAK_CLASSES)[number] | 'AL' | 'H2' | 'H3';

/**
 * Small kana and the prolonged sound mark ー (class CJ) are resolved as NS, UAX #14's own default (LB1) and CSS's
 * `line-break: strict`: no line of Japanese starts with ッ, ャ or ー, which is how a name such as
 * コーポレーション is set by hand (JIS X 4051). It costs a column at most a character of fill.
 */
const CONDITIONAL_JAPANESE_STARTER: LineBreakClass = 'NS';

/** Thai letters, vowels and tone marks (not its digits or signs): text whose words a dictionary finds (class SA). */
function isThaiLetter(codeUnit: number): boolean {
  return (codeUnit >= 0x0e01 && codeUnit <= 0x0e3a) || (codeUnit >= 0x0e40 && codeUnit <= 0x0e4e);
}

/** Thai marks above and below a consonant: part of the letter before them. */
function isThaiMark(codeUnit: number): boolean {
  return codeUnit === 0x0e31 || (codeUnit >= 0x0e34 && codeUnit <= 0x0e3a) || (codeUnit >= 0x0e47 && codeUnit <= 0x0e4e);
}

/** Vowels written before the consonant they follow in speech: เ แ โ ใ ไ. A line never ends on one. */
function isThaiLeadingVowel(codeUnit: number): boolean {
  return codeUnit >= 0x0e40 && codeUnit <= 0x0e44;
}

/**
 * Characters that never start a line of Thai: the marks, the vowels written after a consonant (ะ า ำ ๅ), the
 * repetition mark ๆ and the abbreviation mark ฯ (เป็นต้นๆ, กรุงเทพฯ).
 */
const THAI_FOLLOWERS: ReadonlySet<number> = new Set([0x0e30, 0x0e32, 0x0e33, 0x0e45, 0x0e46, 0x0e2f]);

function neverStartsThaiLine(codeUnit: number): boolean {
  return isThaiMark(codeUnit) || THAI_FOLLOWERS.has(codeUnit);
}

/**
 * CJK ideographs, kana, Hangul, CJK punctuation and the fullwidth forms (East Asian Width W/F/H). UAX #14 is
 * applied only where one side of a place is such a character, or after a ZERO WIDTH SPACE (a break marked on
 * purpose, as Thai writers do) in such a word: between two letters of the alphabets a word breaks only where
 * wrap.ts breaks it today (identifiers, soft hyphens), in CJK text as in Latin text.
 */
function isEastAsian(codePoint: number): boolean {
  return (
    (codePoint >= 0x1100 && codePoint <= 0x11ff) ||
    (codePoint >= 0x2e80 && codePoint <= 0x9fff) ||
    (codePoint >= 0xa960 && codePoint <= 0xa97f) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7ff) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe10 && codePoint <= 0xfe1f) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xffef) ||
    (codePoint >= 0x20000 && codePoint <= 0x3ffff)
  );
}

/** The cheap test that keeps Latin, Arabic and Indic words off every other path here. */
function hasBreakableScript(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const codeUnit = word.charCodeAt(i);
    if (codeUnit < 0x0e01) continue;
    if (isThaiLetter(codeUnit) || (codeUnit >= 0x1100 && isEastAsian(codeUnit)) || (codeUnit >= 0xd840 && codeUnit <= 0xd8bf)) {
      return true;
    }
  }
  return false;
}

function lineBreakClass(codePoint: number): LineBreakClass {
  if (codePoint >= 0xac00 && codePoint <= 0xd7a3) return (codePoint - 0xac00) % 28 === 0 ? 'H2' : 'H3';
  if (codePoint >= 0x0e00 && codePoint <= 0x0e7f) {
    if (isThaiMark(codePoint)) return 'CM';
    if (codePoint >= 0x0e50 && codePoint <= 0x0e59) return 'NU';
    if (codePoint === 0x0e3f) return 'PR';
    return codePoint === 0x0e5a || codePoint === 0x0e5b ? 'BA' : 'AL';
  }
  let [low, high] = [0, LINE_BREAK_RANGES.length / 3 - 1];
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (codePoint < LINE_BREAK_RANGES[middle * 3]!) high = middle - 1;
    else if (codePoint > LINE_BREAK_RANGES[middle * 3 + 1]!) low = middle + 1;
    else {
      const found = LINE_BREAK_CLASSES[LINE_BREAK_RANGES[middle * 3 + 2]!]!;
      return found === 'CJ' ? CONDITIONAL_JAPANESE_STARTER : found;
    }
  }
  return isCombiningMark(codePoint) ? 'CM' : 'AL';
}

const HANGUL: ReadonlySet<LineBreakClass> = new Set(['JL', 'JV', 'JT', 'H2', 'H3']);
const CLOSING: ReadonlySet<LineBreakClass> = new Set(['CL', 'CP', 'EX', 'IS', 'SY']);

/**
 * Whether UAX #14 (15.0) allows a break between a character of class `before` and one of class `after`, with no
 * space between them: rules LB11 to LB31 as they read for two neighbours (LB25 as its pairs; QU never breaks,
 * as LB19 read before Unicode 15.1). `afterWide`/`beforeWide`: East Asian Width F/W/H, for LB30.
 */
function pairBreaks(before: LineBreakClass, after: LineBreakClass, beforeWide: boolean, afterWide: boolean): boolean {
  if (after === 'ZW') return false; // LB7
  if (before === 'ZW') return true; // LB8
  if (before === 'WJ' || after === 'WJ') return false; // LB11
  if (before === 'GL') return false; // LB12
  if (after === 'GL' && before !== 'BA' && before !== 'HY') return false; // LB12a
  if (CLOSING.has(after)) return false; // LB13
  if (before === 'OP') return false; // LB14
  if ((before === 'CL' || before === 'CP') && after === 'NS') return false; // LB16
  if (before === 'B2' && after === 'B2') return false; // LB17
  if (before === 'QU' || after === 'QU') return false; // LB19
  if (after === 'BA' || after === 'HY' || after === 'NS' || before === 'BB') return false; // LB21
  if (after === 'IN') return false; // LB22
  if ((before === 'AL' && after === 'NU') || (before === 'NU' && after === 'AL')) return false; // LB23
  if (before === 'PR' && (after === 'ID' || after === 'EB' || after === 'EM')) return false; // LB23a
  if ((before === 'ID' || before === 'EB' || before === 'EM') && after === 'PO') return false;
  if ((before === 'PR' || before === 'PO') && after === 'AL') return false; // LB24
  if (before === 'AL' && (after === 'PR' || after === 'PO')) return false;
  if ((before === 'CL' || before === 'CP' || before === 'NU') && (after === 'PO' || after === 'PR')) return false; // LB25
  if ((before === 'PO' || before === 'PR') && (after === 'OP' || after === 'NU')) return false;
  if ((before === 'HY' || before === 'IS' || before === 'NU' || before === 'SY') && after === 'NU') return false;
  if (before === 'JL' && (after === 'JL' || after === 'JV' || after === 'H2' || after === 'H3')) return false; // LB26
  if ((before === 'JV' || before === 'H2') && (after === 'JV' || after === 'JT')) return false;
  if ((before === 'JT' || before === 'H3') && after === 'JT') return false;
  if (HANGUL.has(before) && after === 'PO') return false; // LB27
  if (before === 'PR' && HANGUL.has(after)) return false;
  if (before === 'AL' && after === 'AL') return false; // LB28
  if (before === 'IS' && after === 'AL') return false; // LB29
  if ((before === 'AL' || before === 'NU') && after === 'OP' && !afterWide) return false; // LB30
  if (before === 'CP' && !beforeWide && (after === 'AL' || after === 'NU')) return false;
  if (before === 'EB' && after === 'EM') return false; // LB30b
  return true; // LB31
}

const WORD_SEPARATOR = 0x20;

/** The Thai code unit each character of THAI_ALPHABET stands for. */
const THAI_CODE_UNITS = new Uint16Array(0x80);
for (let i = 0; i < THAI_ALPHABET.length; i++) THAI_CODE_UNITS[THAI_ALPHABET.charCodeAt(i)] = 0x0e01 + i;

/**
 * How the dictionary word that starts at `start` in THAI_WORDS compares with `text[from, to)`: below 0 when it sorts
 * before it (a word that is a prefix of the text sorts before it), 0 when equal, above 0 when after it.
 */
function compareWord(start: number, text: string, from: number, to: number): number {
  for (let i = 0; from + i < to; i++) {
    const char = THAI_WORDS.charCodeAt(start + i);
    if (char === WORD_SEPARATOR) return -1;
    const difference = THAI_CODE_UNITS[char]! - text.charCodeAt(from + i);
    if (difference !== 0) return difference;
  }
  return THAI_WORDS.charCodeAt(start + to - from) === WORD_SEPARATOR ? 0 : 1;
}

/** The start of the word of THAI_WORDS that `offset` is in. */
function wordStartAt(offset: number): number {
  let start = offset;
  while (THAI_WORDS.charCodeAt(start - 1) !== WORD_SEPARATOR) start--;
  return start;
}

/**
 * The start of the first word in THAI_WORDS not before `text[from, to)`, from the word start `low` on, found in
 * the string itself (nothing is built, so the first Thai text an isolate sees costs little more than the next):
 * for a text of one character by bisection; for a longer one, whose word is near the one found for its prefix,
 * by galloping from `low` first, then bisection.
 */
function firstWordNotBefore(text: string, from: number, to: number, low: number): number {
  let high = THAI_WORDS.length;
  for (let step = to - from === 1 ? THAI_WORDS.length : 32; low + step < THAI_WORDS.length - 1; step *= 2) {
    const start = wordStartAt(low + step);
    if (compareWord(start, text, from, to) >= 0) {
      high = start;
      break;
    }
    low = THAI_WORDS.indexOf(' ', start) + 1;
  }
  while (low < high) {
    const start = wordStartAt((low + high) >> 1);
    if (compareWord(start, text, from, to) < 0) low = THAI_WORDS.indexOf(' ', start) + 1;
    else high = start;
  }
  return low;
}

/** firstWordNotBefore for each one-letter text (by code unit - 0x0e00), found on first use: half the searches. */
const FIRST_WORD_OF_LETTER = new Int32Array(0x80).fill(-1);

function firstWordOfLetter(text: string, at: number): number {
  const letter = text.charCodeAt(at) - 0x0e00;
  if (FIRST_WORD_OF_LETTER[letter] === -1) FIRST_WORD_OF_LETTER[letter] = firstWordNotBefore(text, at, at + 1, 1);
  return FIRST_WORD_OF_LETTER[letter]!;
}

/** Whether the word at `start` in THAI_WORDS begins with `text[from, to)`. */
function wordBeginsWith(start: number, text: string, from: number, to: number): boolean {
  for (let i = 0; from + i < to; i++) if (THAI_CODE_UNITS[THAI_WORDS.charCodeAt(start + i)] !== text.charCodeAt(from + i)) return false;
  return true;
}

/** Repetition mark ๆ and abbreviation mark ฯ: they end the word before them (มากๆ, กรุงเทพฯ). */
function isThaiWordEnding(codeUnit: number): boolean {
  return codeUnit === 0x0e46 || codeUnit === 0x0e2f;
}

/**
 * The word boundaries inside a run of Thai letters `word[start, end)`, as indices into `word`: maximal matching
 * over the dictionary. Of all the ways to cut the run into dictionary words and unknown stretches, the one with
 * the fewest characters outside dictionary words, then the fewest pieces, then the longest first word; an unknown
 * stretch (a name the dictionary lacks) stays whole. A cut is only ever made where a Thai line may start.
 */
function thaiWordBoundaries(word: string, start: number, end: number): number[] {
  const length = end - start;
  const cuttable = (offset: number) =>
    offset === length ||
    (!neverStartsThaiLine(word.charCodeAt(start + offset)) && !isThaiLeadingVowel(word.charCodeAt(start + offset - 1)));
  const unknown = new Int32Array(length + 1);
  const pieces = new Int32Array(length + 1);
  const next = new Int32Array(length + 1);
  const known = new Uint8Array(length + 1);
  for (let from = length - 1; from >= 0; from--) {
    if (from > 0 && !cuttable(from)) continue;
    let bestUnknown = Number.MAX_SAFE_INTEGER;
    let bestPieces = 0;
    let candidate = firstWordOfLetter(word, start + from);
    for (let to = from + 1; to <= length; to++) {
      if (to > from + 1) candidate = firstWordNotBefore(word, start + from, start + to, candidate);
      if (candidate === THAI_WORDS.length || !wordBeginsWith(candidate, word, start + from, start + to)) break;
      if (compareWord(candidate, word, start + from, start + to) !== 0) continue;
      let wordEnd = to;
      while (wordEnd < length && isThaiWordEnding(word.charCodeAt(start + wordEnd))) wordEnd++;
      if (!cuttable(wordEnd)) continue;
      const [u, p] = [unknown[wordEnd]!, pieces[wordEnd]! + 1];
      if (u < bestUnknown || (u === bestUnknown && p <= bestPieces)) {
        [bestUnknown, bestPieces, next[from], known[from]] = [u, p, wordEnd, 1];
      }
    }
    let to = from + 1;
    while (!cuttable(to)) to++;
    const [u, p] = [unknown[to]! + (to - from), pieces[to]! + 1];
    if (u < bestUnknown || (u === bestUnknown && p < bestPieces)) {
      [bestUnknown, bestPieces, next[from], known[from]] = [u, p, to, 0];
    }
    unknown[from] = bestUnknown;
    pieces[from] = bestPieces;
  }
  const boundaries: number[] = [];
  for (let from = 0; next[from]! < length; from = next[from]!) {
    const to = next[from]!;
    if (known[from] === 1 || known[to] === 1) boundaries.push(start + to);
  }
  return boundaries;
}

/**
 * UTF-16 indices i (0 < i < word.length) where a line may break inside a space-free word: UAX #14 between CJK
 * ideographs/kana/Hangul (with its no-break-before/after punctuation rules), Thai word boundaries from a
 * dictionary, and the syllables of Myanmar, Khmer and Lao (syllable-breaks.ts). Returns [] for words without
 * such characters (Latin, Arabic, Indic ... unchanged).
 *
 * Korean breaks at spaces only, as it is written and as browsers break it with `word-break: keep-all`: no place is
 * found next to a Hangul character (UAX #14's tailoring for Korean), so a Korean word moves to the next line whole
 * and only a word wider than a line is cut between syllables.
 */
export function breakOpportunities(word: string): number[] {
  const syllables = syllableBreaks(word);
  if (!hasBreakableScript(word)) return syllables;
  const breaks: number[] = [];
  let baseClass: LineBreakClass | undefined;
  let baseCodePoint = 0;
  let previousClass: LineBreakClass | undefined;
  const breaksBefore = (lineClass: LineBreakClass, codePoint: number) =>
    baseClass !== undefined &&
    previousClass !== 'ZWJ' && // LB8a
    !HANGUL.has(baseClass) &&
    !HANGUL.has(lineClass) &&
    (isEastAsian(baseCodePoint) || isEastAsian(codePoint) || baseClass === 'ZW') &&
    pairBreaks(baseClass, lineClass, isEastAsian(baseCodePoint), isEastAsian(codePoint));
  for (let index = 0; index < word.length; ) {
    const codePoint = word.codePointAt(index)!;
    if (isThaiLetter(codePoint)) {
      let end = index + 1;
      while (end < word.length && isThaiLetter(word.charCodeAt(end))) end++;
      if (!isThaiMark(codePoint) && breaksBefore('AL', codePoint)) breaks.push(index);
      breaks.push(...thaiWordBoundaries(word, index, end));
      [baseClass, baseCodePoint, previousClass] = ['AL', word.charCodeAt(end - 1), 'AL'];
      index = end;
      continue;
    }
    const lineClass = lineBreakClass(codePoint);
    if (lineClass === 'CM' || lineClass === 'ZWJ') {
      baseClass ??= 'AL'; // LB10: a mark that starts a word is a letter; LB9: else it belongs to the one before
    } else {
      if (breaksBefore(lineClass, codePoint)) breaks.push(index);
      [baseClass, baseCodePoint] = [lineClass, codePoint];
    }
    previousClass = lineClass;
    index += codePoint > 0xffff ? 2 : 1;
  }
  return syllables.length ? [...new Set([...breaks, ...syllables])].sort((a, b) => a - b) : breaks;
}

const ZERO_WIDTH_NON_JOINER = 0x200c;
const ZERO_WIDTH_JOINER = 0x200d;

/** The viramas of the scripts that have them (Devanagari, Khmer's coeng…): with the consonant after, one conjunct. */
const VIRAMAS: ReadonlySet<number> = new Set(SCRIPTS.flatMap((script) => script.viramas.map((hex) => Number.parseInt(hex, 16))));

const LETTER = /^\p{L}$/u;

/**
 * Whether cutting text between these two code points would split what is drawn as one: a letter and its
 * combining marks, anything joined by ZWJ or ZWNJ, a virama and the consonant of its conjunct (क्ष), a Thai
 * vowel written after or before its consonant. wrap.ts never cuts there, even as its last resort.
 */
export function splitsCluster(before: number, after: number): boolean {
  if (isCombiningMark(after)) return true;
  if (before === ZERO_WIDTH_JOINER || before === ZERO_WIDTH_NON_JOINER) return true;
  if (after === ZERO_WIDTH_JOINER || after === ZERO_WIDTH_NON_JOINER) return true;
  if (VIRAMAS.has(before) && after >> 7 === before >> 7 && LETTER.test(String.fromCodePoint(after))) return true;
  return (after >= 0x0e00 && after <= 0x0e7f && neverStartsThaiLine(after)) || isThaiLeadingVowel(before);
}
